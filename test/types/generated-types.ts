// Type tests (compiled by `tsc --noEmit`, not run): wrong calls against the generated types must not compile.
import createClient from 'openapi-fetch';
import type { paths as RestV1Paths } from '../../generated/rest-v1/types.js';
import type { paths as QueueV2Paths, components as QueueV2 } from '../../generated/queue-v2/types.js';
import { validate } from '../../generated/validators/index.js';
import type { RuleId } from '../../generated/rules.js';

const rest = createClient<RestV1Paths>({ baseUrl: 'http://127.0.0.1:1/v1' });
const queue = createClient<QueueV2Paths>({ baseUrl: 'http://127.0.0.1:1/v2/ep' });

export async function typeChecks(): Promise<void> {
  await rest.GET('/pods/{podId}', { params: { path: { podId: 'p1' } } });
  // @ts-expect-error unknown path
  await rest.GET('/podz');
  // @ts-expect-error missing required path parameter
  await rest.GET('/pods/{podId}', { params: { path: {} } });
  await rest.POST('/containerregistryauth', { body: { name: 'hub', username: 'u', password: 'p' } });
  // @ts-expect-error password is required on create
  await rest.POST('/containerregistryauth', { body: { name: 'hub', username: 'u' } });

  await queue.POST('/run', { body: { input: { prompt: 'x' }, policy: { ttl: 10_000 } } });
  // @ts-expect-error ttl is an integer of milliseconds, not a string
  await queue.POST('/run', { body: { input: {}, policy: { ttl: '10s' } } });
  // @ts-expect-error input is required
  await queue.POST('/run', { body: { webhook: 'https://example.com' } });

  const status: QueueV2['schemas']['JobStatus'] = 'IN_PROGRESS';
  // @ts-expect-error RUNNING is a documentation error, not a job status
  const wrong: QueueV2['schemas']['JobStatus'] = 'RUNNING';
  void status;
  void wrong;

  const data: unknown = JSON.parse('{}');
  if (validate.queueV2.getJobStatus.responses['200'](data)) {
    const id: string = data.id; // narrowed by the validator's type guard
    void id;
  }

  const params: unknown = { path: { jobId: 'j' }, query: { wait: '5000' } };
  if (validate.queueV2.getJobStatusSync.params(params)) {
    const jobId: string = params.path.jobId; // typed from the operation's parameters
    const wait: number | undefined = params.query.wait; // coerced to the documented type
    // @ts-expect-error getJobStatusSync has no `ttl` query parameter
    void params.query.ttl;
    void jobId;
    void wait;
  }
}

export const someRule: RuleId | undefined = undefined;
