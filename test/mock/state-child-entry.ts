// Child entry of the crash tests: loads the CLI's modules first, then runs `compute-contract mock` with
// the given arguments once a line arrives on stdin. The next mock of a kill test is loaded while the
// current one still serves, so a restart costs the state file's reading, not Node's module loading.
import { runMockCommand } from '../../src/cli/mock-command.js';

process.stdin.once('data', () => {
  process.stdin.pause();
  void runMockCommand(process.argv.slice(2)).then((code) => process.exit(code));
});
