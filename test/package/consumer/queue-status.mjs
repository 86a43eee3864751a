// A queue-only caller: one validated status() call (request validation on, the default) against a fetch
// that answers from memory. Run with the load recorder: only queue v2's validators may load.
import { createQueueClient } from 'compute-contract';

const answer = JSON.stringify({ id: 'job-1', status: 'IN_QUEUE' });
const queue = createQueueClient({
  endpointBaseUrl: 'http://127.0.0.1:9/v2',
  endpointId: 'ep-1',
  apiKey: 'consumer-key',
  validateResponses: true,
  fetch: async () => new Response(answer, { headers: { 'content-type': 'application/json' } }),
});
console.log(JSON.stringify(await queue.status('job-1')));
