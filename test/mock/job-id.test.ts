import { describe, expect, it } from 'vitest';
import { newJobId } from '../../src/mock/jobs/job-id.js';

const UUID_V4 = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';

describe('job ids (as RunPod: <uuid v4>-u1, sync-<uuid v4>-u1 for /runsync)', () => {
  it('are version-4 UUIDs with the -u1 suffix; /runsync ids carry the sync- prefix', () => {
    expect(newJobId(false)).toMatch(new RegExp(`^${UUID_V4}-u1$`));
    expect(newJobId(true)).toMatch(new RegExp(`^sync-${UUID_V4}-u1$`));
  });

  it('stay distinct and well-formed across many batches of random bytes (256 ids a batch)', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 2_000; i++) ids.add(newJobId(i % 3 === 0));
    expect(ids.size).toBe(2_000);
    for (const id of ids) expect(id).toMatch(new RegExp(`^(sync-)?${UUID_V4}-u1$`));
  });

  it('draw on the whole alphabet: every hex digit appears in the random positions', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) for (const ch of newJobId(false).slice(0, 8)) seen.add(ch);
    expect([...seen].sort().join('')).toBe('0123456789abcdef');
  });
});
