// --state keeps each endpoint's worker key: a worker given RUNPOD_AI_API_KEY (attach mode's worker-env, a
// worker image's --env-file) before a restart is still let in after it; a deleted endpoint's key is not.
import { describe, expect, it } from 'vitest';
import { callJson, stateMocks } from '../mock/state-harness.js';

const KEY = 'state-key';
const state = stateMocks('worker-key-state-', { clock: 'virtual', control: true, apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs'] }] });

async function workerKeyOf(endpointId: string): Promise<string> {
  const text = await (await fetch(`${state.mock.controlUrl}/endpoints/${endpointId}/worker-env`)).text();
  return /^RUNPOD_AI_API_KEY=(.+)$/m.exec(text)![1]!;
}

/** A worker's heartbeat: 204 once let in, 401 for a key that is not the endpoint's. */
async function ping(endpointId: string, key: string): Promise<number> {
  const res = await fetch(`${state.mock.url}/v2/${endpointId}/ping/w-state?gpu=CPU&job_id=&runpod_version=test`, { headers: { authorization: key } });
  await res.arrayBuffer();
  return res.status;
}

describe('worker keys with --state', () => {
  it('a restarted mock lets in the worker key it handed out before; a deleted endpoint\'s key opens nothing', async () => {
    const file = state.path('state.jsonl');
    await state.start(file);
    const make = async (name: string) => {
      const tpl = await callJson('POST', `${state.mock.restV1Url}/templates`, KEY, { name: `${name}-tpl`, imageName: 'w:1', isServerless: true, volumeInGb: 0 });
      return (await callJson('POST', `${state.mock.restV1Url}/endpoints`, KEY, { name, templateId: tpl.body.id, workersMax: 0 })).body.id as string;
    };
    const kept = await make('kept');
    const deleted = await make('deleted');
    const key = await workerKeyOf(kept);
    const deletedKey = await workerKeyOf(deleted);
    expect(await ping(kept, key)).toBe(204);
    expect(await ping(kept, 'rpw_not-the-key')).toBe(401);
    expect((await callJson('DELETE', `${state.mock.restV1Url}/endpoints/${deleted}`, KEY)).status).toBeLessThan(300);
    expect(await ping(deleted, deletedKey), 'the deleted endpoint\'s key').toBe(401);

    await state.restart(file);
    expect(await ping(kept, key), 'the same key after the restart').toBe(204);
    expect(await workerKeyOf(kept), 'worker-env hands out the kept key').toBe(key);
    expect(await ping(deleted, deletedKey), 'the deleted endpoint\'s key after the restart').toBe(401);
  });
});
