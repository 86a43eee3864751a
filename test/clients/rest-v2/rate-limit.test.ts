import { describe, expect, it } from 'vitest';
import { parseRateLimit, parseStructuredList } from '../../../src/clients/rest-v2/rate-limit.js';

const headers = (init: Record<string, string>) => new Headers(init);

describe('RateLimit / RateLimit-Policy (IETF draft structured fields)', () => {
  it('merges remaining/reset with quota/window by policy name', () => {
    const state = parseRateLimit(
      headers({
        RateLimit: '"minute";r=0;t=12, "hour";r=100;t=3000',
        'RateLimit-Policy': '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400',
      }),
      1234,
    );
    expect(state).toEqual({
      receivedAt: 1234,
      windows: [
        { name: 'minute', remaining: 0, resetSeconds: 12, quota: 60, windowSeconds: 60 },
        { name: 'hour', remaining: 100, resetSeconds: 3000, quota: 3000, windowSeconds: 3600 },
      ],
    });
  });

  it('works without a policy, with token names, spaces and unknown parameters', () => {
    expect(parseRateLimit(headers({ RateLimit: 'default ; r=5 ; t=1;pk=:abc=:, "x,y";r=1;t=2' }))?.windows).toEqual([
      { name: 'default', remaining: 5, resetSeconds: 1 },
      { name: 'x,y', remaining: 1, resetSeconds: 2 },
    ]);
  });

  it('skips malformed members and answers undefined without RateLimit', () => {
    expect(parseRateLimit(headers({ RateLimit: '"minute";r=x;t=1, ;;, "hour";r=3;t=4' }))?.windows).toEqual([{ name: 'hour', remaining: 3, resetSeconds: 4 }]);
    expect(parseRateLimit(headers({ 'RateLimit-Policy': '"minute";q=60;w=60' }))).toBeUndefined();
    expect(parseRateLimit(headers({}))).toBeUndefined();
    expect(parseStructuredList('"a";flag;n=?1;s="q;v"')).toEqual([{ name: 'a', params: { flag: true, n: true, s: 'q;v' } }]);
  });
});
