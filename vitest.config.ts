import { defineConfig } from 'vitest/config';

// Chosen for 2 cores (see CONTRIBUTING.md, "Test suite speed"):
// - two workers: vitest's default leaves one core idle (cores - 1); most files wait on servers, a
//   browser or Prism much of the time, so two files at once keep both cores busy;
// - worker threads instead of forked processes: cheaper to start, and no test changes process-wide
//   state (cwd, environment, exit code);
// - isolate: false: the files of a worker share one module graph instead of importing the specs,
//   validators, mock and checks anew for each file (that import was most of the suite's time).
//   Every file starts its own servers and restores what it spies on. Files that replace modules
//   (vi.mock) or test what a module does on its first use (lazy loading) keep a module graph of
//   their own: the `isolated` project.
const ISOLATED = ['test/clients/validator-loading.test.ts', 'test/root-validation.test.ts'];

const shared = {
  testTimeout: 20_000,
  hookTimeout: 20_000,
  pool: 'threads' as const,
};

export default defineConfig({
  test: {
    maxWorkers: 2,
    // CI sets VITEST_JSON to a path so .ci/run can print a plain "N passed, N failed" line.
    reporters: process.env.VITEST_JSON ? ['default', 'json'] : ['default'],
    outputFile: process.env.VITEST_JSON ? { json: process.env.VITEST_JSON } : {},
    projects: [
      { extends: true, test: { ...shared, name: 'shared', include: ['test/**/*.test.ts', 'src/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { ...shared, name: 'isolated', include: ISOLATED, isolate: true } },
    ],
  },
});
