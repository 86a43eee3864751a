// `compute-contract <command>`: mock | conform | docs | rules. `npm start` runs `start`.
// Each command is imported when it runs: `--help` loads nothing, `mock` never loads the conformance runner
// or the docs builder (compiled, `compute-contract --help` answers in a bare node start-up time).
const usage = `Usage: compute-contract <command> [options]

Commands:
  start     The default job of \`npm start\`: conformance run against the embedded mock;
            --today: the mock as the service is today (REST v1 retired; npm run conform:today).
  rules     Print the rule catalogue summary (specs/rules.yaml); --list: every rule with its level.
  mock      Start the stateful reference mock (see docs/mock.md).
  conform   Run the conformance suite against a target.
  docs      Build HTML docs from the specs.
  proxy     Validating proxy: forward to --upstream URL and judge every exchange against the specs.
  check-traffic FILE.har
            The proxy's judgement over recorded traffic (HAR).
  worker    A queue worker speaking RunPod's worker protocol (--handler conformance | MODULE).
`;

type Command = (argv: string[]) => Promise<number>;

const commands: Record<string, Command> = {
  rules: async (argv) => (await import('./rules-summary.js')).runRulesCommand(argv),
  docs: async (argv) => (await import('./docs-command.js')).runDocsCommand(argv),
  mock: async (argv) => (await import('./mock-command.js')).runMockCommand(argv),
  conform: async (argv) => (await import('./conform-command.js')).runConformCommand(argv),
  proxy: async (argv) => (await import('./proxy-command.js')).runProxyCommand(argv),
  worker: async (argv) => (await import('./worker-command.js')).runWorkerCommand(argv),
  'check-traffic': async (argv) => (await import('./check-traffic-command.js')).runCheckTrafficCommand(argv),
  // npm start: the conformance suite against the embedded mock (no target given).
  // `npm start -- --today`: the same against the mock as the service is today (REST v1 retired).
  start: async (argv) => (await import('./conform-command.js')).runConformCommand(argv.filter((a) => a === '--today')),
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    console.log(usage);
    return name ? 0 : 1;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${usage}`);
    return 2;
  }
  return command(rest);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2));
}
