// REST v2 sandbox commands and logs in the mock, through the REST v2 client (sandboxes.run / logs /
// create / terminate): the simulated command set, `sleep` on the virtual clock and the 60 s cap, a command
// as activity, 409 before the container starts and after termination (RESTV2-SANDBOX-005, -007, -008).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/clients/errors.js';
import { createRestV2Client } from '../../src/clients/rest-v2/index.js';
import { KEY } from './harness.js';
import { openStream, startV2, type V2Mock } from './rest-v2-pod-fixtures.js';

let mock: V2Mock;
let client: ReturnType<typeof createRestV2Client>;
beforeAll(async () => {
  mock = await startV2();
  client = createRestV2Client({ apiKey: KEY, baseUrl: mock.h.mock.restV2Url.replace(/\/v2$/, ''), sleep: async () => undefined, maxRetries: 0 });
});
afterAll(() => mock.close());

/** A sandbox whose container has started (5 s CREATING + 10 s). */
async function started(body: Record<string, unknown> = {}): Promise<string> {
  const { id } = await client.sandboxes.create({ imageName: 'python:3.12-slim', ...body });
  mock.advance(15_000);
  return id;
}

describe('REST v2 sandbox commands (mock)', () => {
  it('RESTV2-SANDBOX-007 409 until the container has started, then the simulated commands', async () => {
    const { id } = await client.sandboxes.create({ imageName: 'python:3.12-slim', env: { B: '2', A: '1' } });
    mock.advance(14_999);
    await expect(client.sandboxes.run(id, ['true'])).rejects.toBeInstanceOf(ConflictError);
    mock.advance(1);
    expect(await client.sandboxes.run(id, ['echo', 'hello', 'world'])).toEqual({ output: 'hello world\n', error: null });
    expect(await client.sandboxes.run(id, ['env'])).toEqual({ output: 'A=1\nB=2\n', error: null });
    expect(await client.sandboxes.run(id, ['pwd'])).toEqual({ output: '/root\n', error: null });
    expect(await client.sandboxes.run(id, ['false'])).toEqual({ output: '', error: 'exit status 1' });
    expect(await client.sandboxes.run(id, ['sh', '-c', 'echo hello && python --version'])).toEqual({ output: 'hello\npython: command not found\n', error: 'exit status 127' });
    expect(await client.sandboxes.run(id, ['sh', '-c', "echo 'a  b' && true"])).toEqual({ output: 'a  b\n', error: null });
    expect(await client.sandboxes.run(id, ['ls', '/'])).toEqual({ output: 'ls: command not found\n', error: 'exit status 127' });
    expect(await client.sandboxes.run(id, ['sleep', 'soon'])).toMatchObject({ error: 'exit status 1' });
  });

  it('RESTV2-SANDBOX-007 a body without command or with an empty argv → 422; a terminated sandbox → 409', async () => {
    const id = await started();
    expect((await mock.v2('POST', `/sandboxes/${id}/exec`, {})).status).toBe(422);
    expect((await mock.v2('POST', `/sandboxes/${id}/exec`, { command: [] })).status).toBe(422);
    expect((await mock.v2('POST', `/sandboxes/${id}/exec`, { command: ['x'.repeat(8193)] })).status).toBe(422);
    await client.sandboxes.terminate(id);
    expect((await mock.v2('POST', `/sandboxes/${id}/exec`, { command: ['true'] })).status).toBe(409);
  });

  it('RESTV2-SANDBOX-005 sleep holds the answer on the clock, is activity, and is killed at the 60 s cap', async () => {
    const id = await started({ idleTimeoutSeconds: 30 });
    const before = await client.sandboxes.get(id);
    const sleeping = client.sandboxes.run(id, ['sleep', '45']);
    await mock.h.untilOpen(1);
    // Mid-command the sandbox is not idle, though 30 s pass.
    mock.advance(40_000);
    expect((await client.sandboxes.get(id)).state).toBe('RUNNING');
    mock.advance(5_000);
    expect(await sleeping).toEqual({ output: '', error: null });
    const after = await client.sandboxes.get(id);
    // Creation was the last activity; the command started 15 s later and ended 45 s after that.
    expect(Date.parse(after.lastActivityAt) - Date.parse(before.lastActivityAt)).toBe(15_000 + 45_000);
    expect(Date.parse(after.idleExpiresAt) - Date.parse(after.lastActivityAt)).toBe(30_000);
    const capped = client.sandboxes.run(id, ['sleep', '3600']);
    await mock.h.untilOpen(1);
    mock.advance(60_000);
    expect(await capped).toEqual({ output: '', error: 'killed: ran past the 60 s execution cap' });
  });

  it('RESTV2-SANDBOX-004 terminating a sandbox ends the command running in it', async () => {
    const id = await started();
    const sleeping = client.sandboxes.run(id, ['sleep', '30']);
    await mock.h.untilOpen(1);
    mock.advance(1_000);
    await client.sandboxes.terminate(id);
    expect(await sleeping).toEqual({ output: '', error: 'sandbox terminated while the command ran' });
    expect((await client.sandboxes.get(id)).terminationReason).toBe('USER_REQUESTED');
  });

  it('RESTV2-SANDBOX-008 logs: 409 before the container, system and container lines, the stream ends with the sandbox', async () => {
    const { id } = await client.sandboxes.create({ imageName: 'python:3.12-slim' });
    expect((await mock.v2('GET', `/sandboxes/${id}/logs`)).status).toBe(409);
    mock.advance(18_000);
    const seen: string[] = [];
    for await (const line of client.sandboxes.logs(id, { tail: 100, signal: AbortSignal.timeout(5_000) })) {
      seen.push(`${line.source}: ${line.line}`);
      if (seen.length === 6) break;
    }
    expect(seen.slice(0, 4)).toEqual([
      `system: sandbox ${id} created (2 vCPU cpu3c, image python:3.12-slim)`,
      'system: Pulling image python:3.12-slim',
      'system: compute allocated; sandbox RUNNING',
      'system: Container started',
    ]);
    expect(seen[4]).toBe('container: [1] main process alive; waiting for commands');
    const stream = await openStream(mock, `/sandboxes/${id}/logs?tail=0`);
    await client.sandboxes.terminate(id);
    mock.advance(1_000);
    const events = await stream.ended();
    expect(events.at(-1)?.line).toBe('sandbox terminated (USER_REQUESTED); compute released');
    expect((await mock.v2('GET', `/sandboxes/${id}/logs`)).status).toBe(409);
  });
});
