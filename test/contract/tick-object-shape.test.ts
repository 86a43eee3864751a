import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { heldTickObject, keepTickObjectShape } from '../../src/contract/tick-object-shape.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

/** The held object's own keys: node's tick object has two symbols, then `callback` and `args`. */
function describeHeld(held: object | undefined) {
  return held === undefined ? undefined : { symbols: Object.getOwnPropertySymbols(held).map(String), keys: Object.keys(held) };
}

const TICK_OBJECT = { symbols: ['Symbol(async_id_symbol)', 'Symbol(trigger_async_id_symbol)'], keys: ['callback', 'args'] };

/** In a fresh process (the held object is per process): nothing held before `start`, node's tick object after. */
async function heldAroundStart(start: string): Promise<unknown> {
  const script = `
    import { heldTickObject } from './src/contract/tick-object-shape.ts';
    const before = heldTickObject();
    const server = await (${start});
    await new Promise((resolve) => setImmediate(resolve));
    const held = heldTickObject();
    await server.close();
    console.log(JSON.stringify({ before: before === undefined, symbols: Object.getOwnPropertySymbols(held ?? {}).map(String), keys: Object.keys(held ?? {}) }));`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('tick object held (node\'s nextTick stays on V8\'s fast path in an idle server)', () => {
  it('holds node\'s own tick object after the next tick, and keeps that one', async () => {
    keepTickObjectShape();
    await new Promise((resolve) => setImmediate(resolve));
    const held = heldTickObject();
    expect(describeHeld(held)).toEqual(TICK_OBJECT);
    keepTickObjectShape();
    await new Promise((resolve) => setImmediate(resolve));
    expect(heldTickObject()).toBe(held);
  });

  it('the mock and the validating proxy each hold one once they listen', async () => {
    const [mock, proxy] = await Promise.all([
      heldAroundStart(`import('./src/mock/index.ts').then((m) => m.startMock({ port: 0 }))`),
      heldAroundStart(`import('./src/proxy/index.ts').then((m) => m.startProxy({ upstream: 'http://127.0.0.1:9', port: 0 }))`),
    ]);
    expect(mock).toEqual({ before: true, ...TICK_OBJECT });
    expect(proxy).toEqual({ before: true, ...TICK_OBJECT });
  });
});
