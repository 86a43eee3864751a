// Tests of `--state`: a fresh folder per test for the state file, the mock started on it (closed and the
// folder removed after the test), and a JSON call helper.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startMock, type MockOptions, type RunningMock } from '../../src/mock/index.js';

export interface StateMocks {
  /** A path in this test's folder. */
  path(name: string): string;
  /** Starts a mock on `stateFile` (the last one started is closed after the test). */
  start(stateFile: string): Promise<RunningMock>;
  /** Closes the running mock and starts another on the same file. */
  restart(stateFile: string): Promise<RunningMock>;
  /** The mock started last. */
  readonly mock: RunningMock;
}

export function stateMocks(prefix: string, options: Omit<MockOptions, 'stateFile'>): StateMocks {
  let dir = '';
  let mock: RunningMock | undefined;
  beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), prefix))));
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (stateFile: string) => (mock = await startMock({ ...options, stateFile }));
  return {
    path: (name) => join(dir, name),
    start,
    restart: async (stateFile) => {
      await mock?.close();
      return start(stateFile);
    },
    get mock() {
      return mock!;
    },
  };
}

/** One JSON request with a bearer key: the status and the parsed body (undefined when empty). */
export async function callJson(method: string, url: string, key: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
