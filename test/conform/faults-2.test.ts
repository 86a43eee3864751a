// The suite proves itself (3/3): for each fault of the mock's fault list (this half), the suite
// run against the mock with that fault reports at least one failing rule.
import { describe, expect, test } from 'vitest';
import { FAULT_NAMES } from '../../src/mock/index.js';
import { failingRules, half } from './self-proof.js';

describe('conformance suite catches every mock fault (half 2)', () => {
  for (const fault of half(FAULT_NAMES, 1)) {
    test(`catches ${fault}`, async () => {
      const failing = await failingRules([fault], true);
      expect(failing.length, `no rule failed with fault ${fault}`).toBeGreaterThan(0);
    }, 300_000); // up to the whole catalogue when the catching rule comes late
  }
});
