// `compute-contract conform [options]`: the conformance suite against a target, or the embedded mock.
import { FAULT_NAMES, type FaultName } from '../mock/index.js';
import { defaultSettings, measureMutationScore, runConformance } from '../entries/conform.js';
import { parseLevels } from '../contract/levels.js';
import { DEFAULT_CONCURRENCY, FLAG_NAMES, MAX_CONCURRENCY, MAX_PREFLIGHT_JOB_MS, MAX_REQUEST_TIMEOUT_MS, parseTier, readOptions, remoteTarget, sameSecondKey } from '../conform/target.js';

const SWITCHES = ['--quiet', '--prove', '--strict', '--today'];

export const conformUsage = `Usage: compute-contract conform [options]

Runs the conformance suite (one check per rule of specs/rules.yaml). Without a target it starts the
embedded mock (virtual clock + control API) and runs against it.

The service as it is today (REST v1 retired on 2026-11-15): three URLs, two keys —
  compute-contract conform --rest-v2-url https://api.runpod.io/v2 --queue-url https://api.runpod.ai/v2 \
    --graphql-url https://api.runpod.io/graphql --api-key KEY --second-api-key KEY_OF_ANOTHER_ACCOUNT
  --today                   embedded mock only: the mock shaped like that (REST v1 answers 410 Gone
                            and is left out of the target); npm run conform:today

Target (flags or environment): any subset of the four surface URLs; the rules of a surface left out
are skipped ("needs --queue-url"), and coverage counts the rules of the given surfaces only.
  --rest-url URL            REST v1 base, e.g. https://rest.example.com/v1     CONFORM_REST_URL
  --queue-url URL           queue v2 base without endpoint id, …/v2            CONFORM_QUEUE_URL
  --graphql-url URL         GraphQL address                                    CONFORM_GRAPHQL_URL
  --rest-v2-url URL         REST v2 base, e.g. https://api.example.com/v2      CONFORM_REST_V2_URL
  --api-key KEY             key with every scope                               CONFORM_API_KEY
  --endpoint-id ID          (optional) existing queue endpoint (running the conformance handler) used by
                            the checks that read no counters or limits: auth, version, stream, sync;
                            the others create their own endpoint                CONFORM_ENDPOINT_ID
  --read-only-key KEY       key with only the read scope (AUTH-005)            CONFORM_READ_ONLY_KEY
  --no-permission-key KEY   valid key without any scope (AUTH-005)            CONFORM_NO_PERMISSION_KEY
  --second-api-key KEY      key of ANOTHER account, same scopes as --api-key
                            (ISOLATION-*: nothing crosses between accounts; without it those
                            rules are skipped; docs/accounts.md)               CONFORM_SECOND_API_KEY
  --control-url URL         clock control: POST {url}/clock/advance {"ms":N}   CONFORM_CONTROL_URL
  --control-token TOKEN     sent as Authorization: Bearer with every control request (a mock
                            started with --control-token)                      CONFORM_CONTROL_TOKEN
  --worker-image IMAGE      image of the suite's templates (must run the conformance handler)
  --lb-url TEMPLATE         address of load-balancing endpoints, {id} for the endpoint id, e.g.
                            https://{id}.api.runpod.ai or http://127.0.0.1:8787/lb/{id}; default:
                            derived from a --queue-url whose host is a name (api.runpod.ai/v2 →
                            {id}.api.runpod.ai); none: the LB-* rules are skipped   CONFORM_LB_URL
  --lb-worker-image IMAGE   image of a load-balancing worker answering the echo contract
                            (LB-FORWARD-001; docs/conformance.md)              CONFORM_LB_WORKER_IMAGE

Run:
  --tier safe|full|slow     default full; slow also waits for real on clock rules without control
  --level LIST              only rules of these levels, comma-separated: must (the seed states
                            it), should (observed of the real service), may (assumed); default
                            all                                                CONFORM_LEVEL
  --strict                  failures of every level decide the exit code (default: must only)
  --preflight-job-ms N      how long the preflight's job may take to reach a terminal status
                            before the rules waiting on jobs are reported not run (default
                            10000, max ${MAX_PREFLIGHT_JOB_MS})                                CONFORM_PREFLIGHT_JOB_MS
  --request-timeout-ms N    a request unanswered by then fails its rule (held /runsync, stream,
                            status-sync excepted; default 10000, max ${MAX_REQUEST_TIMEOUT_MS})
                                                                               CONFORM_REQUEST_TIMEOUT_MS
  --concurrency N           checks run at once at most, when they share no target state (clock,
                            rate windows, quotas; see docs/conformance.md); 1 runs them one after
                            another; the report is the same either way (default ${DEFAULT_CONCURRENCY}, max ${MAX_CONCURRENCY})
                                                                               CONFORM_CONCURRENCY
  --seed N                  fast-check seed (default fixed)
  --grep REGEXP             only rules whose id matches
  --reports DIR             report directory (default reports/)
  --max-real-wait-ms N      slow tier: longest real wait one rule may take (default 120000)
  --job-timeout-ms N        polling bound for jobs on a real server (default 60000)
  --fuzz-runs N             agreement rules (AGREE-*): generated requests per operation and
                            phase (default 2)                                  CONFORM_FUZZ_RUNS
  --fault NAME              embedded mock only: inject a fault (${FAULT_NAMES.join(', ')})
  --prove                   embedded mock only: also run the suite once per fault and put the
                            mutation score (faults caught / faults) in the report
  --quiet                   no per-rule progress

Before the rules, a preflight checks each configured surface (reachable, key accepted, and for queue
v2 that a job finishes); a missing capability is reported once, as the root cause of the rules it
keeps from running.

Exit code: 0 when no must rule failed (with --strict: no rule) and the preflight passed; 1 otherwise;
2 on usage errors.`;

export async function runConformCommand(argv: string[]): Promise<number> {
  const faults: FaultName[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--fault' || arg.startsWith('--fault=')) {
      const name = arg.includes('=') ? arg.slice(8) : argv[++i];
      if (!name || !(FAULT_NAMES as readonly string[]).includes(name)) {
        console.error(`unknown fault ${name ?? ''}; known: ${FAULT_NAMES.join(', ')}`);
        return 2;
      }
      faults.push(name as FaultName);
    } else rest.push(arg);
  }
  const { values, errors, flags } = readOptions(rest, process.env);
  if (flags.has('--help') || flags.has('-h')) {
    console.log(conformUsage);
    return 0;
  }
  const sameKey = sameSecondKey(values);
  if (sameKey) {
    console.error(sameKey);
    return 2;
  }
  for (const flag of flags) if (!SWITCHES.includes(flag)) errors.push(`unknown option ${flag} (known: ${FLAG_NAMES.join(' ')} --fault ${SWITCHES.join(' ')})`);
  const tier = parseTier(values['--tier']);
  if (!tier) errors.push(`--tier must be safe, full or slow (got ${values['--tier']})`);
  const target = remoteTarget(values);
  if (typeof target === 'string') errors.push(target);
  if (target && faults.length) errors.push('--fault applies to the embedded mock only');
  if (!target && values['--second-api-key']) errors.push('--second-api-key applies to a remote target (the embedded mock gives itself a key of a second account)');
  if (flags.has('--prove') && (target || faults.length)) errors.push('--prove runs against the fault-free embedded mock only (no target, no --fault)');
  if (flags.has('--today') && target) errors.push('--today shapes the embedded mock; a remote target is judged as its URLs give it');
  if (flags.has('--today') && flags.has('--prove')) errors.push('--prove measures the full embedded mock; leave out --today');
  const numeric = (flag: string) => (values[flag] === undefined ? undefined : Number(values[flag]));
  for (const flag of ['--seed', '--max-real-wait-ms', '--job-timeout-ms', '--fuzz-runs', '--preflight-job-ms', '--request-timeout-ms', '--concurrency']) {
    const n = numeric(flag);
    if (n !== undefined && !Number.isInteger(n)) errors.push(`${flag} must be an integer`);
  }
  const preflightJobMs = numeric('--preflight-job-ms');
  if (preflightJobMs !== undefined && (preflightJobMs < 1 || preflightJobMs > MAX_PREFLIGHT_JOB_MS)) errors.push(`--preflight-job-ms must be between 1 and ${MAX_PREFLIGHT_JOB_MS}`);
  const requestTimeoutMs = numeric('--request-timeout-ms');
  if (requestTimeoutMs !== undefined && (requestTimeoutMs < 1 || requestTimeoutMs > MAX_REQUEST_TIMEOUT_MS)) errors.push(`--request-timeout-ms must be between 1 and ${MAX_REQUEST_TIMEOUT_MS}`);
  const concurrency = numeric('--concurrency');
  if (concurrency !== undefined && (concurrency < 1 || concurrency > MAX_CONCURRENCY)) errors.push(`--concurrency must be between 1 and ${MAX_CONCURRENCY}`);
  const levels = parseLevels(values['--level']);
  if (typeof levels === 'string') errors.push(levels);
  if (errors.length) {
    console.error(`${errors.join('\n')}\n\n${conformUsage}`);
    return 2;
  }
  const settings = defaultSettings({ tier: tier! });
  if (numeric('--seed') !== undefined) settings.seed = numeric('--seed')!;
  if (numeric('--max-real-wait-ms') !== undefined) settings.maxRealWaitMs = numeric('--max-real-wait-ms')!;
  if (numeric('--job-timeout-ms') !== undefined) settings.jobTimeoutMs = numeric('--job-timeout-ms')!;
  if (numeric('--fuzz-runs') !== undefined) settings.fuzzRuns = numeric('--fuzz-runs')!;
  if (values['--grep']) settings.grep = values['--grep'];
  if (preflightJobMs !== undefined) settings.preflightJobMs = preflightJobMs;
  if (requestTimeoutMs !== undefined) settings.requestTimeoutMs = requestTimeoutMs;
  if (concurrency !== undefined) settings.concurrency = concurrency;
  if (values['--level'] !== undefined) settings.levels = levels as Exclude<typeof levels, string>;
  if (flags.has('--strict')) settings.strict = true;
  const mutation = flags.has('--prove') ? await measureMutationScore(settings, (line) => console.log(line)) : undefined;
  const result = await runConformance({
    target: (target as Exclude<typeof target, string>) ?? undefined,
    faults,
    today: flags.has('--today'),
    settings,
    mutation,
    reportsDir: values['--reports'] ?? 'reports',
    progress: flags.has('--quiet') ? 'summary' : 'rules',
  });
  return result.exitCode;
}
