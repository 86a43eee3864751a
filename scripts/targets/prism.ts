// A stateless spec mock as a foreign target: Prism (devDependency) serving our bundled REST v1 and
// queue v2 specs, one process per spec on 127.0.0.1 and an ephemeral port. Prism's mock mode
// ignores `servers`, so each spec is served with its server path folded into its paths
// (/v1/…, /v2/{endpointId}/…) — the same URL layout as the service. It has no GraphQL.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TargetConfig } from '../../src/conform/target.js';
import { DEFAULT_WORKER_IMAGE } from '../../src/conform/target.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PRISM_BIN = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
const READY_TIMEOUT_MS = 60_000;
/** Prism wants some Authorization for the specs' bearer scheme; the value is not checked. */
export const PRISM_API_KEY = 'prism-any-key';

type Spec = { paths: Record<string, Record<string, unknown>>; servers?: unknown };

/** The spec with `prefix` in front of every path (and its path parameters declared). */
function withPrefix(spec: Spec, prefix: string, pathParams: string[]): Spec {
  const paths: Spec['paths'] = {};
  for (const [path, item] of Object.entries(spec.paths)) {
    const params = [...((item['parameters'] as unknown[]) ?? []), ...pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }))];
    paths[`${prefix}${path}`] = pathParams.length ? { ...item, parameters: params } : item;
  }
  return { ...spec, paths, servers: [{ url: '/' }] };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function untilAnswering(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (let i = 0; i < 600 && Date.now() < deadline; i++) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}: ${log().slice(-500)}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`prism did not answer on ${url} within ${READY_TIMEOUT_MS / 1000} s: ${log().slice(-500)}`);
}

/** Prism on 127.0.0.1 and a free port: `mock` of the spec, or with `upstream` its validating `proxy` in front of it. */
export async function startPrism(specFile: string, upstream?: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const command = upstream === undefined ? ['mock', specFile] : ['proxy', specFile, upstream];
  const child = spawn(process.execPath, [PRISM_BIN, ...command, '-p', String(port), '-h', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  try {
    await untilAnswering(url, child, () => output);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  return { url, child };
}

/** The bundled queue v2 spec as Prism serves it (server path folded into the paths), written to `file`. */
export function writeQueueSpecForPrism(file: string): void {
  const spec = JSON.parse(readFileSync(join(ROOT, 'generated/queue-v2/openapi.json'), 'utf8')) as Spec;
  writeFileSync(file, JSON.stringify(withPrefix(spec, '/v2/{endpointId}', ['endpointId'])));
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export interface PrismTarget {
  target: TargetConfig;
  stop(): Promise<void>;
}

/** REST v1 and queue v2 served by Prism (any subset); stop() ends both processes and removes the spec copies. */
export async function startPrismTarget(surfaces: ('restV1' | 'queueV2')[] = ['restV1', 'queueV2']): Promise<PrismTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-prism-'));
  const children: ChildProcess[] = [];
  const target: TargetConfig = { name: 'Prism 5.16 (stateless spec mock)', apiKey: PRISM_API_KEY, workerImage: DEFAULT_WORKER_IMAGE };
  const cleanUp = async () => {
    await Promise.all(children.map(stop));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Spec;
    const starts: Promise<void>[] = [];
    if (surfaces.includes('restV1')) {
      const file = join(dir, 'rest-v1.json');
      writeFileSync(file, JSON.stringify(withPrefix(read('generated/rest-v1/openapi.json'), '/v1', [])));
      starts.push(startPrism(file).then(({ url, child }) => {
        children.push(child);
        target.restUrl = `${url}/v1`;
      }));
    }
    if (surfaces.includes('queueV2')) {
      const file = join(dir, 'queue-v2.json');
      writeQueueSpecForPrism(file);
      starts.push(startPrism(file).then(({ url, child }) => {
        children.push(child);
        target.queueUrl = `${url}/v2`;
      }));
    }
    const settled = await Promise.allSettled(starts);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return { target, stop: cleanUp };
}
