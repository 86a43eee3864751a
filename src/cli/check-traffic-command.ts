// `compute-contract check-traffic FILE.har`: the proxy's per-exchange judgement over recorded traffic.
import { parseArgs } from 'node:util';
import type { RuleLevel } from '../contract/levels.js';
import { parseSurface, type TrafficSurface } from '../proxy/classify.js';
import { HarError, MAX_HAR_BYTES, MAX_HAR_ENTRIES, readHar } from '../proxy/har.js';
import { failingLevels } from '../proxy/levels-option.js';
import { writeTrafficReports } from '../proxy/report-files.js';
import { exitCodeOf } from '../proxy/tally.js';
import { checkTraffic } from '../proxy/traffic-check.js';

const HELP = `Usage: compute-contract check-traffic FILE.har [options]

Judges every recorded exchange of a HAR file (from a browser or a recording proxy) like
\`compute-contract proxy\` does: documented status, body schema, required headers, secrets the client
sent appearing in an answer, 401 for calls without credentials. At most ${MAX_HAR_BYTES} bytes and
${MAX_HAR_ENTRIES} entries are read.

Options:
  --surface NAME     match every path as restV1, restV2, queueV2 or graphql (default: by path)
  --report DIR       write conformance-report.json/.md/.html and junit.xml into DIR
  --json             print the report as JSON on stdout instead of the summary
  --strict           violations of every level fail (exit code 1)
  --level LIST       levels that fail, e.g. must,should (default must)
  -h, --help         show this help

Exit code: 0 when no violation of a failing level was found, 1 otherwise, 2 on usage errors or a file
that is not a readable HAR.
`;

interface CheckArgs {
  file: string;
  surface?: TrafficSurface;
  reportDir?: string;
  json: boolean;
  levels: Set<RuleLevel>;
}

export function parseCheckTrafficArgs(argv: string[]): CheckArgs | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      surface: { type: 'string' },
      report: { type: 'string' },
      json: { type: 'boolean' },
      strict: { type: 'boolean' },
      level: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length !== 1) throw new Error(`one HAR file expected (got ${positionals.length})`);
  const surface = values.surface === undefined ? undefined : parseSurface(values.surface);
  if (values.surface !== undefined && !surface) throw new Error('--surface must be restV1, restV2, queueV2 or graphql');
  if (values.report === '') throw new Error('--report needs a directory');
  return { file: positionals[0]!, surface, reportDir: values.report, json: values.json ?? false, levels: failingLevels(values.strict ?? false, values.level) };
}

export async function runCheckTrafficCommand(argv: string[]): Promise<number> {
  let args: CheckArgs | 'help';
  try {
    args = parseCheckTrafficArgs(argv);
  } catch (error) {
    process.stderr.write(`compute-contract check-traffic: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  let entries;
  try {
    entries = readHar(args.file);
  } catch (error) {
    if (!(error instanceof HarError)) throw error;
    process.stderr.write(`compute-contract check-traffic: ${args.file}: ${error.message}\n`);
    return 2;
  }
  const { report, book } = checkTraffic(entries, args.file, args.surface);
  const t = report.totals;
  if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    for (const v of report.violations) process.stdout.write(`✗ [${v.level}] ${v.ruleId} ${v.surface} ${v.operationId}: ${v.message}${v.count > 1 ? ` (×${v.count})` : ''}\n`);
    process.stdout.write(`${t.exchanges} exchanges (${t.judged} judged, ${t.unmatched} unmatched, ${t.upstreamErrors} without answer): ${t.violations} violations (must ${t.byLevel.must}, should ${t.byLevel.should}, may ${t.byLevel.may})\n`);
  }
  if (args.reportDir) {
    try {
      process.stderr.write(`reports: ${writeTrafficReports(report, args.reportDir, book, { levels: args.levels }).join(', ')}\n`);
    } catch (error) {
      process.stderr.write(`compute-contract check-traffic: cannot write reports: ${(error as Error).message}\n`);
      return 2;
    }
  }
  return exitCodeOf(report, args.levels);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runCheckTrafficCommand(process.argv.slice(2)).then((code) => process.exit(code));
}
