// A `compute-contract mock --state FILE` child process for the crash tests: started from the sources
// (the same entry the package CLI dispatches to), on 127.0.0.1 with an ephemeral port, killable with SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exchange } from '../../src/contract/exchange.js';
import { REPO, TestBundle, WRITE_CODE_CACHE_ENV } from '../support/bundle.js';

/**
 * The child's entry, bundled once per content (test/support/bundle.ts); self-contained and with V8's code cache
 * beside it, as the kill and CLI tests start ~40: a child loads in ~0.3 s of CPU less.
 */
const child = new TestBundle('state-tests', { file: 'test/mock/state-child-entry.ts' }, { selfContained: true, codeCache: true });
let ready: Promise<unknown> | undefined;

/** Builds the child's bundle and its code cache (call before spawning; cheap after the first call). */
export function bundleChild(): Promise<unknown> {
  ready ??= child.build().then(() => (existsSync(child.codeCacheFile) ? undefined : writeCodeCache()));
  return ready;
}

/** Removes the bundle (afterAll). */
export function removeBundle(): void {
  child.remove();
  ready = undefined;
}

/**
 * A child that serves a little of what the tests send on every surface (so the functions of those request
 * paths are compiled) and then writes its code cache for the next children. Once per bundle content.
 */
async function writeCodeCache(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mock-state-cache-'));
  const mock = await prepare(join(dir, 'state.db'), {}, { [WRITE_CODE_CACHE_ENV]: '1' }).start();
  try {
    const template = await call('POST', `${mock.restV1}/templates`, { name: 'cache-base', imageName: 'worker:1' });
    await call('POST', `${mock.restV1}/templates/${template.body.id}/update`, { readme: 'update 1', volumeMountPath: '/mnt/u1' });
    const endpoint = await call('POST', `${mock.restV1}/endpoints`, { name: 'cache-ep', templateId: template.body.id, workersMin: 0, workersMax: 1 });
    const volume = await call('POST', `${mock.restV2}/network-volumes`, { name: 'cache-volume', size: 10, dataCenter: 'EU-RO-1' });
    await call('DELETE', `${mock.restV2}/network-volumes/${volume.body.id}`);
    await call('POST', mock.graphql, { query: 'mutation { saveTemplate(input: {name: "cache-gql", imageName: "img:1", containerDiskInGb: 5, volumeInGb: 0}) { id name } }' });
    const job = await call('POST', `${mock.queue(endpoint.body.id)}/run`, { input: { mock: { durationMs: 1 } } });
    await call('GET', `${mock.queue(endpoint.body.id)}/status/${job.body.id}`);
    for (const path of ['/templates', '/networkvolumes']) await call('GET', `${mock.restV1}${path}`);
    const written = new Promise<void>((resolve) => mock.proc.stderr!.on('data', () => mock.stderr().includes('code cache written') && resolve()));
    mock.proc.kill('SIGUSR2');
    await Promise.race([written, mock.exited]);
  } finally {
    await mock.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

const START_TIMEOUT_MS = 20_000;
export const KEY = 'mock-key';

export interface ChildOptions {
  /** Extra CLI flags. */
  args?: string[];
  /** Compact once this many bytes were appended (instead of 8 MiB): kills then land during compactions. */
  compactBytes?: number;
  /** Largest file the child may write, in KiB (RLIMIT_FSIZE: writes beyond it fail with EFBIG, like a full disk). */
  fileSizeLimitKiB?: number;
  /** Run the child inside this network namespace (`ip netns exec`; root only). */
  netns?: string;
}

export interface ChildMock {
  proc: ChildProcess;
  restV1: string;
  restV2: string;
  graphql: string;
  queue(endpointId: string): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  kill(): Promise<void>;
}

function spawnMock(stateFile: string, options: ChildOptions, extraEnv: NodeJS.ProcessEnv = {}): ChildProcess {
  const mockArgs = ['--port', '0', '--host', '127.0.0.1', '--state', stateFile, '--rate-limits', 'off', ...(options.args ?? [])];
  // Started through the code-cache loader, so the CLI module's "run when executed directly" check stays false.
  const args = child.command();
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', STATE_CHILD_ARGS: JSON.stringify(mockArgs), ...extraEnv };
  if (options.compactBytes !== undefined) env['STATE_CHILD_COMPACT_BYTES'] = String(options.compactBytes);
  const spawnOptions = { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] as ['pipe', 'pipe', 'pipe'], env };
  if (options.netns !== undefined) return spawn('ip', ['netns', 'exec', options.netns, process.execPath, ...args], spawnOptions);
  if (options.fileSizeLimitKiB === undefined) return spawn(process.execPath, args, spawnOptions);
  // bash's ulimit -f counts KiB; node ignores SIGXFSZ, so the write fails with EFBIG instead of killing it.
  return spawn('bash', ['-c', `ulimit -f ${options.fileSizeLimitKiB} && exec "$0" "$@"`, process.execPath, ...args], spawnOptions);
}

/** Runs the child until it exits (a start that must fail); returns its exit code and stderr. */
export async function runToExit(stateFile: string, options: ChildOptions = {}): Promise<{ code: number | null; stderr: string; stdout: string }> {
  await bundleChild();
  const proc = spawnMock(stateFile, options);
  proc.stdin!.write('go\n');
  let stderr = '';
  let stdout = '';
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  proc.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    // Started after all: stop it, the caller's assertion on the code will fail.
    if (stdout.includes('GraphQL:')) proc.kill('SIGTERM');
  });
  const code = await new Promise<number | null>((resolve) => proc.once('exit', (c) => resolve(c)));
  return { code, stderr, stdout };
}

export async function startChild(stateFile: string, options: ChildOptions = {}): Promise<ChildMock> {
  await bundleChild();
  return prepareChild(stateFile, options).start();
}

/** A child that loads its modules and waits; start() runs the mock on the state file. Call bundleChild() first. */
export interface PreparedChild {
  start(): Promise<ChildMock>;
  /** Ends a child that was never started. */
  discard(): Promise<void>;
}

export function prepareChild(stateFile: string, options: ChildOptions = {}): PreparedChild {
  return prepare(stateFile, options);
}

function prepare(stateFile: string, options: ChildOptions, extraEnv: NodeJS.ProcessEnv = {}): PreparedChild {
  const proc = spawnMock(stateFile, options, extraEnv);
  let stderr = '';
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return {
    start: () => run(proc, exited, () => stderr),
    async discard() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
  };
}

async function run(proc: ChildProcess, exited: Promise<number | null>, stderr: () => string): Promise<ChildMock> {
  let stdout = '';
  proc.stdin!.write('go\n');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock did not start within ${START_TIMEOUT_MS} ms: ${stderr()}`)), START_TIMEOUT_MS);
    proc.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('GraphQL:')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`mock exited with ${code} before it started: ${stderr()}`));
    });
  });
  const line = (label: string) => new RegExp(`^${label}:\\s+(\\S+)`, 'm').exec(stdout)![1]!;
  const restV1 = line('REST v1');
  return {
    proc,
    restV1,
    restV2: line('REST v2'),
    graphql: line('GraphQL'),
    queue: (endpointId) => `${restV1.slice(0, -3)}/v2/${endpointId}`,
    stderr,
    exited,
    async kill() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
  };
}

export interface Answer {
  status: number;
  body: any;
}

/**
 * One request with the default key; throws on a network error (no answer = nothing acknowledged). Through node:http
 * kept alive (src/contract/exchange.ts), not fetch: ~1 ms less CPU a request, and the kill test makes ~1,200. A request
 * a kill cuts off on a reused connection is sent once more, to the dead port, and rejects all the same.
 */
export async function call(method: string, url: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${KEY}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await exchange({ method, url, headers, body: body === undefined ? undefined : JSON.stringify(body), maxBytes: 64 * 1024 * 1024 });
  return { status: response.status, body: response.text === '' ? undefined : JSON.parse(response.text) };
}
