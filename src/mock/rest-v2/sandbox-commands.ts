// The commands a mock sandbox "runs" (runSandboxCommand). The mock starts no process: a small,
// documented set is simulated deterministically (specs/rest-v2/paths/sandboxes/runSandboxCommand.yaml),
// anything else is "command not found" with exit status 127, as a shell reports it.
import { splitShellWords } from '../graphql/docker-args.js';

/** The per-command execution cap (assumed; the pages say only "short"). */
export const COMMAND_CAP_MS = 60_000;
/** Most output a command answers (the spec's SandboxCommandResult.output bound). */
export const MAX_COMMAND_OUTPUT = 1_048_576;
/** Working directory `pwd` reports (assumed). */
const WORKDIR = '/root';

export interface CommandOutcome {
  output: string;
  /** The host's failure (exit status, cap reached), null on success. */
  error: string | null;
  /** Mock-clock time the command takes (at most the cap). */
  durationMs: number;
}

interface Step {
  output: string;
  status: number;
  durationMs: number;
}

const ok = (output: string, durationMs = 0): Step => ({ output, status: 0, durationMs });
const failed = (output: string, status: number): Step => ({ output, status, durationMs: 0 });

function simple(argv: readonly string[], env: Readonly<Record<string, string>>): Step {
  const [name = '', ...args] = argv;
  switch (name) {
    case 'echo':
      return ok(`${args.join(' ')}\n`);
    case 'true':
      return ok('');
    case 'false':
      return failed('', 1);
    case 'pwd':
      return ok(`${WORKDIR}\n`);
    case 'env':
      return ok(Object.keys(env).sort().map((k) => `${k}=${env[k]}\n`).join(''));
    case 'sleep': {
      const seconds = args.length === 1 && /^\d+(\.\d+)?$/.test(args[0]!) ? Number(args[0]) : Number.NaN;
      return Number.isFinite(seconds) ? ok('', Math.round(seconds * 1000)) : failed(`sleep: invalid time interval '${args.join(' ')}'\n`, 1);
    }
    default:
      return failed(`${name === '' ? "''" : name}: command not found\n`, 127);
  }
}

/** `sh -c SCRIPT`: one simulated command, or several joined by `&&` (stops at the first failure). */
function shell(script: string, env: Readonly<Record<string, string>>): Step {
  let output = '';
  let durationMs = 0;
  for (const part of script.split('&&')) {
    let words: string[];
    try {
      words = splitShellWords(part.trim());
    } catch {
      return { output: `${output}sh: syntax error\n`, status: 2, durationMs };
    }
    const step = simple(words, env);
    output += step.output;
    durationMs += step.durationMs;
    if (step.status !== 0) return { output, status: step.status, durationMs };
  }
  return { output, status: 0, durationMs };
}

/** What `argv` does in a sandbox whose environment is `env`. */
export function simulateCommand(argv: readonly string[], env: Readonly<Record<string, string>>): CommandOutcome {
  const isShell = (argv[0] === 'sh' || argv[0] === 'bash') && argv[1] === '-c' && argv.length >= 3;
  const step = isShell ? shell(argv[2]!, env) : simple(argv, env);
  const output = step.output.slice(0, MAX_COMMAND_OUTPUT);
  if (step.durationMs > COMMAND_CAP_MS) {
    return { output, error: `killed: ran past the ${COMMAND_CAP_MS / 1000} s execution cap`, durationMs: COMMAND_CAP_MS };
  }
  return { output, error: step.status === 0 ? null : `exit status ${step.status}`, durationMs: step.durationMs };
}
