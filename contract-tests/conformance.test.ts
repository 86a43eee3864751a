// The suite as a vitest project: `npx vitest run --config contract-tests/vitest.config.ts`.
// One test per rule of specs/rules.yaml, titled "<RULE-ID> <title>". The target comes from the
// CONFORM_* environment variables (see docs/conformance.md); none → the embedded mock.
import { afterAll, beforeAll, describe, test } from 'vitest';
import { defaultSettings, loadCatalogue, startEmbeddedTarget, type RuleResult, type TargetConfig } from '../src/conform/index.js';
import { runSuite } from '../src/conform/runner.js';
import { conformanceChecks } from './index.js';
import { parseTier, readOptions, remoteTarget } from '../src/conform/target.js';

const { values } = readOptions([], process.env);
let target: TargetConfig;
const results = new Map<string, RuleResult>();

beforeAll(async () => {
  const remote = remoteTarget(values);
  if (typeof remote === 'string') throw new Error(remote);
  target = remote ?? (await startEmbeddedTarget());
  const settings = defaultSettings({ tier: parseTier(values['--tier']) ?? 'full' });
  if (values['--seed']) settings.seed = Number(values['--seed']);
  if (values['--grep']) settings.grep = values['--grep'];
  if (values['--concurrency']) settings.concurrency = Number(values['--concurrency']);
  const { summary } = await runSuite({ checks: conformanceChecks, target, settings });
  for (const r of summary.results) results.set(r.id, r);
}, 600_000);

afterAll(async () => {
  await target?.embedded?.close();
});

const bySurface = new Map<string, ReturnType<typeof loadCatalogue>[number][]>();
for (const rule of loadCatalogue()) bySurface.set(rule.surface, [...(bySurface.get(rule.surface) ?? []), rule]);

for (const [surface, rules] of bySurface) {
  describe(surface, () => {
    for (const rule of rules) {
      test(`${rule.id} ${rule.title}`, (ctx) => {
        const r = results.get(rule.id);
        if (!r) throw new Error('the runner reported nothing for this rule');
        if (r.outcome === 'skip') return ctx.skip(r.reason);
        if (r.outcome === 'fail') throw new Error(r.reason);
      });
    }
  });
}
