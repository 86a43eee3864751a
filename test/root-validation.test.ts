// The package root's validation (src/validation/on-demand.ts): synchronous checks over one surface's
// validators, loaded on first use and shared with the clients. The first-use require() of the compiled
// package is exercised on the installed tarball (test/package/); here the sources run under vitest, where
// require() cannot load a TypeScript module, which is also what a bundle without the files looks like.
import { describe, expect, it, vi } from 'vitest';
import { loadDefaultValidator } from '../src/validation/surface-loader.js';
import { getOperation, loadValidators, validateRequest, validateResponse, validateSchema, validateWebhook } from '../src/validation/on-demand.js';

describe('root validation, per surface', () => {
  it('after loadValidators, checks requests, responses, schemas and webhooks synchronously', async () => {
    await loadValidators('queueV2');
    expect(validateRequest('queueV2', 'runJob', { body: { input: {}, policy: { ttl: 5 } } })).toEqual([{ path: '/body/policy/ttl', message: 'must be >= 10000' }]);
    expect(validateRequest('queueV2', 'getJobStatus', { path: { jobId: 'job-1' } })).toEqual([]);
    expect(validateResponse('queueV2', 'getJobStatus', 418, {})[0]?.path).toBe('/status');
    expect(validateSchema('queueV2', 'JobSubmission', { input: {} })).toEqual([]);
    expect(validateWebhook('jobCompleted', { id: 'job-1', status: 'DONE' }).map((issue) => issue.path)).toContain('/body/status');
  });

  it('shares the loaded validators with the clients: one load per surface', async () => {
    await loadValidators('queueV2');
    const fromClients = await loadDefaultValidator('queueV2');
    expect(() => fromClients.validateRequest('restV1', 'getPod', {})).toThrow(/queueV2 validators were asked about restV1/);
    expect(await loadDefaultValidator('queueV2')).toBe(fromClients);
  });

  it('names the fix when a surface cannot be loaded synchronously (no compiled module to require)', async () => {
    // Fresh module instances: other files in this worker may have loaded REST v2's validators already.
    vi.resetModules();
    const fresh = await import('../src/validation/on-demand.js');
    expect(() => fresh.validateRequest('restV2', 'listPods', {})).toThrow(/restV2 validators could not be loaded synchronously.*await loadValidators\('restV2'\)/);
    await fresh.loadValidators('restV2');
    expect(fresh.validateRequest('restV2', 'listPods', {})).toEqual([]);
  });

  it('refuses an unknown surface and an unknown operation with a clear error', async () => {
    expect(() => validateRequest('nope' as never, 'x', {})).toThrow('Unknown surface "nope"');
    await expect(loadValidators('nope' as never)).rejects.toThrow('Unknown surface "nope"');
    await loadValidators('restV1');
    expect(() => validateRequest('restV1', 'noSuchOperation', {})).toThrow('Unknown restV1 operation "noSuchOperation"');
    expect(getOperation('queueV2', 'runJob')).toMatchObject({ method: 'POST', path: '/run' });
  });
});
