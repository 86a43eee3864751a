// `--worker NAME=exec:COMMAND` and `--worker NAME=FILE.py`: a worker that runs as its own process (docs/workers.md).
// Shared by queue workers (worker protocol) and load-balancing workers (HTTP servers).
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { WorkerSetupError } from '../simulated-workers/types.js';

/** The longest COMMAND accepted (a shell line). */
export const MAX_COMMAND_LENGTH = 4096;

export interface ProcessCommand {
  /** Run through `/bin/sh -c`. */
  command: string;
  /** As given (reports, /__control/workers). */
  source: string;
}

/** Single-quotes a path for the shell. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The process command of a worker definition; undefined when it is not a process worker. */
export function processCommandOf(name: string, definition: string): ProcessCommand | undefined {
  if (definition.startsWith('exec:')) {
    const command = definition.slice('exec:'.length).trim();
    if (command === '') throw new WorkerSetupError(`--worker ${name}=exec: the command is empty (exec:COMMAND, e.g. exec:python3 handler.py)`);
    if (command.length > MAX_COMMAND_LENGTH) throw new WorkerSetupError(`--worker ${name}=exec:…: the command is longer than ${MAX_COMMAND_LENGTH} characters`);
    return { command, source: definition };
  }
  if (definition.endsWith('.py')) {
    const file = resolve(definition);
    if (!existsSync(file) || !statSync(file).isFile()) throw new WorkerSetupError(`--worker ${name}=${definition}: no such file`);
    return { command: `exec python3 ${shellQuote(file)}`, source: definition };
  }
  return undefined;
}
