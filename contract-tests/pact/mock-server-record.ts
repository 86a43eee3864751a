// Waits until the Pact mock server has recorded a request it already answered.
// Why: the Pact core's mock server can send its answer before it books the request against the
// expected interactions; under CPU load the client's test callback then returns first, and Pact reports
// "expected but not received" for a request the client saw answered (measured: 4 of 5 runs of
// test/pact failed with the type check running beside them; 0 of 5 once the booking is awaited).
// Every request changes the server's mismatch report (an expected interaction stops being missing, or
// an unexpected request is added), so the wait is for that change, bounded in time.
import pactCore from '@pact-foundation/pact-core';

const RECORD_WAIT_MS = 2_000;
const POLL_MS = 2;

// A handle of the Pact core; its mock-server queries are by port, whichever pact started the server.
let core: ReturnType<typeof pactCore.makeConsumerPact> | undefined;
/** The mock server's mismatch report as text; undefined when no Pact mock server runs on `port`. */
const mismatchesAt = (port: number): string | undefined => {
  core ??= pactCore.makeConsumerPact('compute-contract-probe', 'compute-contract-probe', 5, 'error');
  try {
    return JSON.stringify(core.mockServerMismatches(port));
  } catch {
    return undefined;
  }
};

function portOf(input: Request | URL | string): number | undefined {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const port = Number(url.port);
  return url.hostname === '127.0.0.1' && port > 0 ? port : undefined;
}

/** Sends through `send`, then waits (≤ RECORD_WAIT_MS) until the mock server's report shows the request. */
export async function recordedByMockServer(input: Request | URL | string, send: () => Promise<Response>): Promise<Response> {
  const port = portOf(input);
  if (port === undefined) return send();
  const before = mismatchesAt(port);
  const answer = await send();
  if (before === undefined) return answer;
  const deadline = Date.now() + RECORD_WAIT_MS;
  while (mismatchesAt(port) === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  return answer;
}
