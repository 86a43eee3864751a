// `compute-contract proxy --upstream URL`: the validating proxy, until SIGINT/SIGTERM (docs/proxy.md).
import { parseArgs } from 'node:util';
import type { RuleLevel } from '../contract/levels.js';
import { parseSurface, type TrafficSurface } from '../proxy/classify.js';
import { startProxy, REPORT_PATH, type RunningProxy } from '../proxy/forward.js';
import { failingLevels } from '../proxy/levels-option.js';
import { writeTrafficReports } from '../proxy/report-files.js';
import { exitCodeOf } from '../proxy/tally.js';

export const DEFAULT_PROXY_PORT = 8790;

const HELP = `Usage: compute-contract proxy --upstream URL [options]

Forwards every request unchanged to URL (streaming, headers kept except hop-by-hop ones) and judges each
exchange against the specs: documented status, body schema, required headers (Retry-After on 429), no
secret the client sent in an answer, 401 for calls without credentials. Each violation names a rule of
specs/rules.yaml and its level (must/should/may). Running tally: GET ${REPORT_PATH}.

Options:
  --upstream URL     base URL of the real or fake service (required), e.g. http://127.0.0.1:8787
  --port N           port to listen on (default ${DEFAULT_PROXY_PORT}; 0 = ephemeral)
  --host HOST        interface to bind (default 127.0.0.1)
  --surface NAME     match every path as restV1, restV2, queueV2 or graphql (default: by path)
  --report DIR       on SIGINT/SIGTERM write conformance-report.json/.md/.html and junit.xml into DIR
  --strict           violations of every level fail (exit code 1)
  --level LIST       levels that fail, e.g. must,should (default must)
  --quiet            no line per violation on stderr
  -h, --help         show this help

Exit code after SIGINT/SIGTERM: 0 when no violation of a failing level was seen, 1 otherwise; 2 on
usage errors.
`;

export interface ProxyArgs {
  upstream: string;
  port: number;
  host: string;
  surface?: TrafficSurface;
  reportDir?: string;
  levels: Set<RuleLevel>;
  quiet: boolean;
}

export function parseProxyArgs(argv: string[]): ProxyArgs | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      upstream: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      surface: { type: 'string' },
      report: { type: 'string' },
      strict: { type: 'boolean' },
      level: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (!values.upstream) throw new Error('--upstream URL is required');
  const port = values.port === undefined ? DEFAULT_PROXY_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error('--port must be an integer between 0 and 65535');
  const surface = values.surface === undefined ? undefined : parseSurface(values.surface);
  if (values.surface !== undefined && !surface) throw new Error('--surface must be restV1, restV2, queueV2 or graphql');
  if (values.report === '') throw new Error('--report needs a directory');
  return {
    upstream: values.upstream,
    port,
    host: values.host ?? '127.0.0.1',
    surface,
    reportDir: values.report,
    levels: failingLevels(values.strict ?? false, values.level),
    quiet: values.quiet ?? false,
  };
}

export async function runProxyCommand(argv: string[]): Promise<number> {
  let args: ProxyArgs | 'help';
  try {
    args = parseProxyArgs(argv);
  } catch (error) {
    process.stderr.write(`compute-contract proxy: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  const { levels, quiet } = args;
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({
      upstream: args.upstream,
      port: args.port,
      host: args.host,
      surface: args.surface,
      onJudged: (judgement) => {
        if (quiet) return;
        for (const v of judgement.violations) process.stderr.write(`${proxy.book.redact(`✗ [${v.level}] ${v.ruleId} ${v.surface} ${v.operationId}: ${v.message}`)}\n`);
      },
    });
  } catch (error) {
    process.stderr.write(`compute-contract proxy: ${(error as Error).message}\n`);
    return 2;
  }
  process.stdout.write(`proxy:    ${proxy.url} → ${proxy.upstream}\ntally:    ${proxy.url}${REPORT_PATH}\n`);
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      const report = proxy.report();
      const t = report.totals;
      process.stderr.write(`compute-contract proxy: ${signal}; ${t.exchanges} exchanges, ${t.violations} violations (must ${t.byLevel.must}, should ${t.byLevel.should}, may ${t.byLevel.may})\n`);
      let code = exitCodeOf(report, levels);
      if (args.reportDir) {
        try {
          process.stderr.write(`reports:  ${writeTrafficReports(report, args.reportDir, proxy.book, { levels }).join(', ')}\n`);
        } catch (error) {
          process.stderr.write(`compute-contract proxy: cannot write reports: ${(error as Error).message}\n`);
          code = 2;
        }
      }
      proxy.close().then(() => resolve(code), () => resolve(code));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

// Direct use: `tsx src/cli/proxy-command.ts --upstream URL` (the package CLI dispatches here too).
if (import.meta.url === `file://${process.argv[1]}`) {
  runProxyCommand(process.argv.slice(2)).then((code) => process.exit(code));
}
