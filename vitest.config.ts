import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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
// Pact's core is one native library per process with process-wide state (its tracing subscriber, the
// mock servers' registry, which it initialises once per process): the Pact files run in forked processes,
// not worker threads, and the files of one process share its module graph (a process per file cost ~13 s of
// CPU in imports). No project-level maxWorkers: vitest then requires a sequence.groupOrder of its own, which
// would run the Pact files after all the others instead of beside them.
const OWN_PROCESS = ['test/pact/**/*.test.ts'];

/**
 * The files that run longest start first, so that no core idles at the end waiting for one of them
 * (vitest would otherwise start a fresh clone's files largest first, and these are small files).
 */
const LONGEST_FIRST = [
  'test/agreement/mock-agreement.test.ts', 'test/conform/fault-free.test.ts', 'test/conform/faults.test.ts',
  'test/conform/preflight.test.ts', 'test/mock/rate-limits-per-operation.test.ts', 'test/agreement/teeth.test.ts',
  'test/docs/browser.test.ts', 'test/worker-protocol/node-worker.test.ts', 'test/agreement/generator.test.ts', 'test/mock/persistence-kill.test.ts',
  'test/specs-lint.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

const shared = {
  testTimeout: 20_000,
  hookTimeout: 20_000,
  pool: 'threads' as const,
};

export default defineConfig({
  test: {
    maxWorkers: 2,
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache, keyed by content):
    // a second `npm test` skips the transform of every unchanged file (test/clients + test/validation: 19 → 12 s of CPU).
    experimental: { fsModuleCache: true },
    sequence: { sequencer: LongestFirst },
    // CI sets VITEST_JSON to a path so .ci/run can print a plain "N passed, N failed" line.
    reporters: process.env.VITEST_JSON ? ['default', 'json'] : ['default'],
    outputFile: process.env.VITEST_JSON ? { json: process.env.VITEST_JSON } : {},
    projects: [
      { extends: true, test: { ...shared, name: 'shared', include: ['test/**/*.test.ts', 'src/**/*.test.ts'], exclude: [...ISOLATED, ...OWN_PROCESS], isolate: false } },
      { extends: true, test: { ...shared, name: 'isolated', include: ISOLATED, isolate: true } },
      { extends: true, test: { ...shared, name: 'own-process', include: OWN_PROCESS, pool: 'forks', isolate: false } },
    ],
  },
});
