// Loads the workers given to startMock() / `mock --worker NAME=MODULE|FILE.json` before the server starts.
// Every problem is one line (WorkerSetupError, CLI exit code 2): no half-configured mock ever listens.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtinOfImage } from './builtins.js';
import { processCommandOf } from '../worker-processes/command.js';
import type { FleetOptions } from './fleet.js';
import { parseStubRules } from './stubs.js';
import { MAX_WORKER_NAME_LENGTH, MAX_WORKERS, WorkerSetupError, type StubRule, type WorkerDefinition, type WorkerHandler } from './types.js';

export type LoadedWorker =
  | { kind: 'handler'; handler: WorkerHandler; source: string }
  | { kind: 'stubs'; rules: StubRule[]; source: string }
  /** A worker process: `exec:COMMAND` or `FILE.py` (worker-processes/). */
  | { kind: 'process'; command: string; source: string };

/** `NAME=MODULE`, `NAME=FILE.json`, `NAME=FILE.py` or `NAME=exec:COMMAND` pairs (CLI) into definitions; a NAME given twice stops the start. */
export function parseWorkerFlags(flags: readonly string[]): Record<string, string> {
  const workers: Record<string, string> = {};
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    if (eq <= 0 || eq === flag.length - 1) throw new WorkerSetupError(`--worker ${flag}: expected NAME=MODULE, NAME=FILE.json, NAME=FILE.py or NAME=exec:COMMAND`);
    const name = flag.slice(0, eq);
    if (Object.hasOwn(workers, name)) throw new WorkerSetupError(`--worker ${name}: the endpoint name ${name} is given twice`);
    workers[name] = flag.slice(eq + 1);
  }
  return workers;
}

const FLEET_KEYS = { seed: 'seed', 'failure-rate': 'failureRate', p50: 'latencyP50Ms', p99: 'latencyP99Ms', 'cold-start': 'coldStartMs' } as const;

/** `--fleet seed=7,failure-rate=0.05,p50=200,p99=2000,cold-start=3000` into FleetOptions (checked at start). */
export function parseFleetFlag(flag: string): FleetOptions {
  const options: FleetOptions = {};
  for (const pair of flag.split(',')) {
    const [key, value, extra] = pair.split('=');
    const field = key !== undefined && Object.hasOwn(FLEET_KEYS, key) ? FLEET_KEYS[key as keyof typeof FLEET_KEYS] : undefined;
    if (!field || value === undefined || value === '' || extra !== undefined || !Number.isFinite(Number(value))) {
      throw new WorkerSetupError(`--fleet ${pair}: expected KEY=NUMBER with KEY one of ${Object.keys(FLEET_KEYS).join(', ')}`);
    }
    options[field] = Number(value);
  }
  return options;
}

export async function loadWorkers(definitions: Readonly<Record<string, WorkerDefinition>> = {}): Promise<Map<string, LoadedWorker>> {
  const entries = Object.entries(definitions);
  if (entries.length > MAX_WORKERS) throw new WorkerSetupError(`workers: ${entries.length} given; at most ${MAX_WORKERS}`);
  const loaded = new Map<string, LoadedWorker>();
  for (const [name, definition] of entries) {
    if (name === '' || name.length > MAX_WORKER_NAME_LENGTH) throw new WorkerSetupError(`--worker ${name}: NAME must be 1..${MAX_WORKER_NAME_LENGTH} characters`);
    loaded.set(name, await loadOne(name, definition));
  }
  return loaded;
}

async function loadOne(name: string, definition: WorkerDefinition): Promise<LoadedWorker> {
  if (typeof definition === 'function') return { kind: 'handler', handler: definition, source: 'function' };
  if (Array.isArray(definition)) {
    const rules = parseStubRules(definition);
    if (typeof rules === 'string') throw new WorkerSetupError(`--worker ${name}: stub rules ${rules}`);
    return { kind: 'stubs', rules, source: 'stubs' };
  }
  if (typeof definition !== 'string' || definition === '') {
    throw new WorkerSetupError(`--worker ${name}: must be a handler function, a list of stub rules, or a MODULE or FILE.json path`);
  }
  const command = processCommandOf(name, definition);
  if (command) return { kind: 'process', ...command };
  const builtin = builtinOfImage(definition);
  if (builtin) return { kind: 'handler', handler: builtin.handler, source: `builtin:${builtin.name}` };
  return definition.endsWith('.json') ? loadStubsFile(name, definition) : loadModule(name, definition);
}

function loadStubsFile(name: string, file: string): LoadedWorker {
  let text: string;
  try {
    text = readFileSync(resolve(file), 'utf8');
  } catch (error) {
    throw new WorkerSetupError(`--worker ${name}=${file}: cannot read the stubs file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new WorkerSetupError(`--worker ${name}=${file}: not valid JSON (${(error as Error).message})`);
  }
  const rules = parseStubRules(document);
  if (typeof rules === 'string') throw new WorkerSetupError(`--worker ${name}=${file}: the stubs ${rules}`);
  return { kind: 'stubs', rules, source: file };
}

async function loadModule(name: string, module: string): Promise<LoadedWorker> {
  let exports: { default?: unknown };
  try {
    exports = (await import(pathToFileURL(resolve(module)).href)) as { default?: unknown };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ERR_MODULE_NOT_FOUND' ? 'no such module' : `it threw on import: ${(error as Error).message ?? String(error)}`;
    throw new WorkerSetupError(`--worker ${name}=${module}: cannot load the module (${reason.split('\n')[0]})`);
  }
  if (typeof exports.default !== 'function') {
    throw new WorkerSetupError(`--worker ${name}=${module}: the module has no default export function (export default async function handler(job) {…})`);
  }
  return { kind: 'handler', handler: exports.default as WorkerHandler, source: module };
}
