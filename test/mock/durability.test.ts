import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mock-state-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('--state durability', () => {
  it('no record is lost across a clean restart; the file is replaced atomically', async () => {
    const stateFile = join(dir, 'state.json');
    const first = await Harness.start({ stateFile });
    const auth = (await first.rest('POST', '/containerregistryauth', { name: 'r', username: 'u', password: 'pw' })).body.id;
    const ep = await first.endpoint();
    const pod = (await first.rest('POST', '/pods', { imageName: 'x:1' })).body.id;
    const volume = (await first.rest('POST', '/networkvolumes', { name: 'v', size: 5, dataCenterId: 'EU-RO-1' })).body.id;
    const done = await first.run(ep, { mock: { durationMs: 10, output: 'kept' } });
    await first.advance(10);
    const waiting = await first.run(ep, { mock: { durationMs: 10 } }, { policy: { lowPriority: true } });
    await first.rest('PATCH', `/endpoints/${ep}`, { workersMax: 0 });
    const secret = (await first.graphql('mutation { secretCreate(input: {name: "S", value: "v"}) { id } }')).body.data.secretCreate.id;
    const billedBefore = (await first.rest('GET', '/billing/endpoints')).body;
    expect(billedBefore.some((row: { timeBilledMs: number }) => row.timeBilledMs > 0)).toBe(true);
    const clockBefore = first.mock.clock.now();
    // Real time passing while the mock is down must not move its virtual clock.
    await new Promise((resolve) => setTimeout(resolve, 30));
    await first.close();
    expect(existsSync(stateFile)).toBe(true);
    expect(readdirSync(dir)).toEqual(['state.json']);

    const second = await Harness.start({ stateFile });
    try {
      expect(second.mock.clock.now()).toBe(clockBefore);
      expect((await second.rest('GET', '/billing/endpoints')).body).toEqual(billedBefore);
      expect((await second.rest('GET', `/containerregistryauth/${auth}`)).status).toBe(200);
      expect((await second.rest('GET', `/endpoints/${ep}`)).status).toBe(200);
      expect((await second.rest('GET', `/pods/${pod}`)).status).toBe(200);
      expect((await second.rest('GET', `/networkvolumes/${volume}`)).status).toBe(200);
      expect((await second.status(ep, done)).body).toMatchObject({ status: 'COMPLETED', output: 'kept' });
      expect((await second.status(ep, waiting)).body.status).toBe('IN_QUEUE');
      expect(second.mock.core.store.secrets.has(secret)).toBe(true);
      // Timers are re-armed: retention still expires the completed job.
      await second.advance(30 * 60_000);
      expect((await second.status(ep, done)).status).toBe(404);
    } finally {
      await second.close();
    }
  });

  it('starts empty when the state file does not exist yet', async () => {
    const h = await Harness.start({ stateFile: join(dir, 'new.json') });
    try {
      expect((await h.rest('GET', '/pods')).body).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
