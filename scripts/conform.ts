// npm run conform -- [options]: the conformance suite (see `compute-contract conform --help`).
import { runConformCommand } from '../src/cli/conform-command.js';

process.exitCode = await runConformCommand(process.argv.slice(2));
