// REST v2 list cost vs REST v1 on the same mock (run: `tsx scripts/bench-rest-v2.ts`): GET of 1,000
// templates through /v2/templates (REST v2) and through /v1/templates, alternating rounds, autocannon on
// loopback, bounded in time. Goal: v2 takes ≤ 1.2× the time per request of v1 (a ratio measured in the
// same run, so it does not depend on the machine).
import { startMock } from '../src/mock/index.js';
import { autocannon } from './bench/autocannon.js';


const TEMPLATES = 1_000;
const DURATION_S = Number(process.env['BENCH_DURATION_S'] ?? 3);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const GOAL_RATIO = 1.2;
const KEY = 'bench-key';

const mock = await startMock({ rateLimits: false, apiKeys: [{ key: KEY, scopes: ['read', 'write'] }] });
try {
  for (let i = 0; i < TEMPLATES; i++) {
    const saved = mock.core.store.saveTemplate({ name: `bench-${i}`, imageName: `bench/img:${i}`, dockerStartCmd: ['python', '-u', 'handler.py'], env: { A: String(i) }, ports: ['8000/http'] });
    if (!saved.ok) throw new Error(saved.message);
  }
  const headers = { authorization: `Bearer ${KEY}` };
  const measure = async (url: string) => {
    const r = await autocannon({ url, connections: 4, duration: DURATION_S, headers });
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    return r.requests.average;
  };
  const v1: number[] = [];
  const v2: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    v1.push(await measure(`${mock.restV1Url}/templates`));
    v2.push(await measure(`${mock.restV2Url}/templates`));
  }
  const best = (xs: number[]) => Math.max(...xs);
  const ratio = best(v1) / best(v2);
  console.log(`list ${TEMPLATES} templates: REST v1 ${best(v1).toFixed(0)} req/s, REST v2 ${best(v2).toFixed(0)} req/s`);
  console.log(`REST v2 time per request vs REST v1: ${ratio.toFixed(2)}× (goal ≤ ${GOAL_RATIO}×: ${ratio <= GOAL_RATIO ? 'met' : 'MISSED'})`);
  process.exitCode = ratio <= GOAL_RATIO ? 0 : 1;
} finally {
  await mock.close();
}
