// Child entry of the crash tests: loads the CLI's modules first, then runs `compute-contract mock` with
// the arguments in STATE_CHILD_ARGS (a JSON array) once a line arrives on stdin. The next mock of a kill
// test is loaded while the current one still serves, so a restart costs reading the state file, not
// Node's module loading.
import { runMockCommand } from '../../src/cli/mock-command.js';
import { Journal } from '../../src/mock/state-journal/journal.js';

// Kills among compactions: compact whenever a few KiB were appended, whatever the state's size.
if (process.env['STATE_CHILD_COMPACT_BYTES']) {
  Journal.defaultCompactMinBytes = Number(process.env['STATE_CHILD_COMPACT_BYTES']);
  Journal.compactionGrowth = 0;
  Journal.deadBytesPerLiveByte = 0;
}

const args = JSON.parse(process.env['STATE_CHILD_ARGS'] ?? '[]') as string[];
process.stdin.once('data', () => {
  process.stdin.pause();
  void runMockCommand(args).then((code) => process.exit(code));
});
