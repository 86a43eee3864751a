// The package checks (`npm run test:package`, a step of .ci/run): build, pack, install the tarball into a
// temporary project and use it as a consumer would. Kept out of `npm test` (vitest.config.ts includes
// test/**/*.test.ts; these are *.check.ts) because packing and installing take most of a minute.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/package/**/*.check.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    reporters: process.env.VITEST_JSON ? ['default', 'json'] : ['default'],
    outputFile: process.env.VITEST_JSON ? { json: process.env.VITEST_JSON } : {},
  },
});
