// `compute-contract <command>`: mock | conform | docs | rules. `npm start` runs `start`.
import { runRulesCommand } from './rules-summary.js';
import { runDocsCommand } from './docs-command.js';
import { runMockCommand } from './mock-command.js';
import { runConformCommand } from './conform-command.js';
import { runProxyCommand } from './proxy-command.js';
import { runCheckTrafficCommand } from './check-traffic-command.js';

const usage = `Usage: compute-contract <command> [options]

Commands:
  start     The default job of \`npm start\`: conformance run against the embedded mock.
  rules     Print the rule catalogue summary (specs/rules.yaml); --list: every rule with its level.
  mock      Start the stateful reference mock (see docs/mock.md).
  conform   Run the conformance suite against a target.
  docs      Build HTML docs from the specs.
  proxy     Validating proxy: forward to --upstream URL and judge every exchange against the specs.
  check-traffic FILE.har
            The proxy's judgement over recorded traffic (HAR).
`;

type Command = (argv: string[]) => Promise<number>;

const commands: Record<string, Command> = {
  rules: async (argv) => runRulesCommand(argv),
  docs: runDocsCommand,
  mock: runMockCommand,
  conform: runConformCommand,
  proxy: runProxyCommand,
  'check-traffic': runCheckTrafficCommand,
  // npm start: the conformance suite against the embedded mock (no target given).
  start: () => runConformCommand([]),
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    console.log(usage);
    return name ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${usage}`);
    return 2;
  }
  return command(rest);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2));
}
