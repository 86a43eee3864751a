// `compute-contract mock`: runs the stateful reference mock until SIGINT/SIGTERM.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseKeySpec } from '../mock/auth.js';
import { parseCorsOrigin } from '../mock/cors.js';
import { FAULT_NAMES, startMock, type ApiKey, type FaultName, type MockOptions } from '../mock/index.js';
import { resolveOptions } from '../mock/options.js';
import { StateFileError } from '../mock/persistence.js';
import { parseFleetFlag, parseWorkerFlags } from '../mock/simulated-workers/load.js';
import { WorkerSetupError } from '../mock/simulated-workers/types.js';

const HELP = `Usage: compute-contract mock [options]

Serves REST v1 at /v1, REST v2 at /v2/<collection> (alias /rest/v2), queue v2 at /v2/{endpointId} and
GraphQL at /graphql: the real service's layout on one port (docs/official-sdks.md).

Options:
  --port N                    port to listen on (default 8787; 0 = ephemeral)
  --host HOST                 interface to bind (default 127.0.0.1)
  --api-key KEY[:SCOPES][@ACCOUNT]
                              accepted API key, repeatable; SCOPES is a comma list of
                              read,write,jobs,graphql (default: all). ACCOUNT (1-64 letters,
                              digits, _ - .) is the account the key belongs to: it sees only
                              that account's resources (default: the default account
                              user_mock). Without any key the documented default key is
                              accepted (see docs/mock.md).
  --keys-file FILE            one KEY[:SCOPES][@ACCOUNT] per line (# comments allowed)
  --clock real|virtual        virtual: time moves only through the control API (default real)
  --control                   serve the control API at /__control (reset, seed, clock, faults):
                              it answers loopback peers only, anyone else gets 404 as if it
                              did not exist. On a non-loopback --host it needs --control-token
                              (without one the mock refuses to start, exit 2)
  --control-token TOKEN       the control API answers only requests carrying
                              Authorization: Bearer TOKEN, from any peer (16-512 printable
                              characters; env COMPUTE_CONTRACT_CONTROL_TOKEN; never logged)
  --rate-limits on|off|F      switch rate limits off, or scale every limit by factor F (default on)
  --requests-per-worker N     per-worker figure of the dynamic rate limit (default from the spec)
  --job-duration MS           duration of jobs without input.mock.durationMs (default 50)
  --template-delete-delay MS  delay after a template's last use before it can be deleted
                              (default from the spec: 120000)
  --fault NAME                enable a deliberate deviation, repeatable:
                              ${FAULT_NAMES.join(', ')}
  --state FILE                persist all state to FILE and restore it on start; every answer
                              is sent after its changes are on disk (docs/state.md). A damaged
                              or unwritable FILE, or one another mock uses (FILE.lock), stops
                              the start with exit code 2
  --worker NAME=MODULE|FILE.json|FILE.py|exec:COMMAND
                              the worker of every endpoint named NAME ('*': of every endpoint
                              without its own), repeatable: MODULE's default export is RunPod's
                              handler(job); FILE.json holds stub rules [{match, output|error|
                              durationMs|stream}]; FILE.py and exec:COMMAND run worker processes
                              speaking RunPod's worker protocol (a runpod SDK worker, or
                              exec:compute-contract worker --handler …). A template image
                              compute-contract/echo|image|llm picks a built-in worker
                              (docs/workers.md). A bad MODULE or FILE stops the start (exit 2).
                              On a LOAD_BALANCER endpoint MODULE exports a fetch handler
                              (request) => Response and a process is an HTTP server on PORT
                              with GET /ping; served at /lb/{endpointId}/{path}
  --fleet seed=N,failure-rate=R,p50=MS,p99=MS,cold-start=MS
                              seeded randomness of the default worker: job durations drawn
                              log-normally with that median and 99th percentile, failures at
                              rate R (0..1), a cold start before a fresh worker's first job;
                              the same seed and clock give the same run (docs/workers.md)
  --webhook-allow HOST[:PORT]|ADDRESS/PREFIX
                              a job webhook destination allowed beyond the default, repeatable
                              (at most 100). Default: a mock on loopback delivers webhooks to
                              loopback only; one on another --host to public addresses only,
                              never a private, loopback or link-local one it was not told.
                              A refused destination is logged as refused, never contacted
  --log                       one line per request on stderr (never query strings or keys)
  --cors ORIGIN|*             answer CORS for browser pages of ORIGIN (or any origin with *);
                              default off (no Access-Control-* headers)
  --retire-rest-v1            answer every REST v1 request 410 Gone naming its REST v2
                              replacement, as the real service does since 2026-11-15
  --docs                      serve the documentation site at /docs, with try-it panels
                              whose requests go to this mock
  -h, --help                  show this help
`;

/** The environment variable that carries the control token (a flag would show in `ps`). */
export const CONTROL_TOKEN_ENV = 'COMPUTE_CONTRACT_CONTROL_TOKEN';

export function parseMockArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): MockOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      'keys-file': { type: 'string' },
      clock: { type: 'string' },
      control: { type: 'boolean' },
      'control-token': { type: 'string' },
      'rate-limits': { type: 'string' },
      'requests-per-worker': { type: 'string' },
      'job-duration': { type: 'string' },
      'template-delete-delay': { type: 'string' },
      fault: { type: 'string', multiple: true },
      state: { type: 'string' },
      log: { type: 'boolean' },
      cors: { type: 'string' },
      'retire-rest-v1': { type: 'boolean' },
      docs: { type: 'boolean' },
      worker: { type: 'string', multiple: true },
      fleet: { type: 'string' },
      'webhook-allow': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const options: MockOptions = { port: 8787 };
  if (values.port !== undefined) options.port = integer('--port', values.port, 0, 65_535);
  if (values.host !== undefined) options.host = values.host;
  const keys: ApiKey[] = (values['api-key'] ?? []).map((spec) => withContext(`--api-key '${redactedKey(spec)}'`, () => parseKeySpec(spec)));
  if (values['keys-file'] !== undefined) {
    const file = values['keys-file'];
    const text = withContext(`--keys-file ${file}`, () => readFileSync(file, 'utf8'));
    for (const [index, line] of text.split(/\r?\n/).entries()) {
      const trimmed = line.trim();
      if (trimmed && !trimmed.startsWith('#')) keys.push(withContext(`--keys-file ${file} line ${index + 1}`, () => parseKeySpec(trimmed)));
    }
  }
  if (keys.length > 0) options.apiKeys = keys;
  if (values.clock !== undefined) {
    if (values.clock !== 'real' && values.clock !== 'virtual') throw new Error('--clock must be real or virtual');
    options.clock = values.clock;
  }
  if (values.control) options.control = true;
  const controlToken = values['control-token'] ?? env[CONTROL_TOKEN_ENV];
  if (controlToken !== undefined && controlToken !== '') options.controlToken = controlToken;
  const rl = values['rate-limits'];
  if (rl !== undefined) {
    if (rl === 'on') options.rateLimits = true;
    else if (rl === 'off') options.rateLimits = false;
    else {
      const factor = Number(rl);
      if (!Number.isFinite(factor) || factor <= 0) throw new Error('--rate-limits must be on, off or a positive factor');
      options.rateLimits = factor;
    }
  }
  if (values['requests-per-worker'] !== undefined) options.requestsPerWorkerPer10s = integer('--requests-per-worker', values['requests-per-worker'], 0);
  if (values['job-duration'] !== undefined) options.jobDurationMs = integer('--job-duration', values['job-duration'], 0);
  if (values['template-delete-delay'] !== undefined) options.templateDeleteDelayMs = integer('--template-delete-delay', values['template-delete-delay'], 0);
  if (values.fault) {
    for (const fault of values.fault) if (!(FAULT_NAMES as readonly string[]).includes(fault)) throw new Error(`unknown fault '${fault}' (known: ${FAULT_NAMES.join(', ')})`);
    options.faults = values.fault as FaultName[];
  }
  if (values.state !== undefined) options.stateFile = values.state;
  if (values.log) options.log = true;
  if (values.cors !== undefined) options.cors = parseCorsOrigin(values.cors);
  if (values['retire-rest-v1']) options.retireRestV1 = true;
  if (values.docs) options.docs = true;
  if (values.worker) options.workers = parseWorkerFlags(values.worker);
  if (values.fleet !== undefined) options.fleet = parseFleetFlag(values.fleet);
  if (values['webhook-allow']) options.webhookAllow = values['webhook-allow'];
  return options;
}

/** A bad key, key file line or account: one line says what and where, without the whole help. */
class KeySpecError extends Error {}

/** Runs `parse`, naming `where` in its error (one line: the flag or the key file's line). */
function withContext<T>(where: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new KeySpecError(`${where}: ${(error as Error).message}`);
  }
}

/** A key spec as it may be shown: the key itself is a secret, only its scopes and account are named. */
function redactedKey(spec: string): string {
  const at = spec.lastIndexOf('@');
  const colon = spec.lastIndexOf(':', at === -1 ? undefined : at);
  const cut = colon > 0 ? colon : at > 0 ? at : spec.length;
  return `***${spec.slice(cut)}`;
}

function integer(flag: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} must be an integer between ${min} and ${max}`);
  return n;
}

function oneLineExit(error: WorkerSetupError): number {
  process.stderr.write(`compute-contract mock: ${error.message}\n`);
  return error.exitCode;
}

/** Runs the mock; resolves with the exit code once it was stopped by a signal. */
export async function runMockCommand(argv: string[]): Promise<number> {
  let options: MockOptions | 'help';
  try {
    options = parseMockArgs(argv);
  } catch (error) {
    if (error instanceof WorkerSetupError) return oneLineExit(error);
    process.stderr.write(`compute-contract mock: ${(error as Error).message}\n${error instanceof KeySpecError ? '' : `\n${HELP}`}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  try {
    // Key accounts (bounds, one key in two accounts) are checked before anything starts.
    resolveOptions(options);
  } catch (error) {
    process.stderr.write(`compute-contract mock: ${(error as Error).message}\n`);
    return 2;
  }
  let mock;
  try {
    mock = await startMock(options);
  } catch (error) {
    // A state file that is damaged, foreign, of another format version or not writable: say so, change nothing.
    if (error instanceof WorkerSetupError) return oneLineExit(error);
    if (error instanceof StateFileError) {
      process.stderr.write(`compute-contract mock: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
  const lines = [
    `REST v1:  ${mock.restV1Url}${options.retireRestV1 ? ' (retired: every request answers 410 Gone)' : ''}`,
    `REST v2:  ${mock.restV2Url}`,
    `queue v2: ${mock.queueV2Url('{endpointId}')}`.replace('%7BendpointId%7D', '{endpointId}'),
    `GraphQL:  ${mock.graphqlUrl}`,
  ];
  if (options.control) lines.push(`control:  ${mock.controlUrl} (${options.controlToken ? 'requests carrying the control token' : 'loopback peers only'})`);
  if (!options.apiKeys) lines.push('auth:     default API key (docs/mock.md)');
  if (options.faults?.length) lines.push(`faults:   ${options.faults.join(', ')}`);
  if (options.cors) lines.push(`cors:     ${options.cors}`);
  if (options.docs) lines.push(`Docs:     ${mock.url}/docs/`);
  if (options.workers) lines.push(`workers:  ${Object.keys(options.workers).join(', ')}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stderr.write(`compute-contract mock: ${signal}, shutting down\n`);
      mock.close().then(() => resolve(0), () => resolve(1));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

// Direct use: `tsx src/cli/mock-command.ts --port 0` (the package CLI dispatches here too).
if (import.meta.url === `file://${process.argv[1]}`) {
  runMockCommand(process.argv.slice(2)).then((code) => process.exit(code));
}
