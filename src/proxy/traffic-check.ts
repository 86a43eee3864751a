// Offline traffic check: the proxy's per-exchange judgement over recorded entries, in recorded order
// (secrets sent earlier are searched for in every later answer, as in a proxy session).
import type { TrafficSurface } from './classify.js';
import type { HarEntry, HarMiss } from './har.js';
import { judgeExchange } from './judge.js';
import { SecretBook } from './secrets.js';
import { IdOwners } from './id-owners.js';
import { AnswerMemo } from './answer-memo.js';
import { Tally, type TrafficReport } from './tally.js';

export interface TrafficCheck {
  report: TrafficReport;
  book: SecretBook;
}

export function checkTraffic(entries: readonly (HarEntry | HarMiss)[], source: string, surface?: TrafficSurface): TrafficCheck {
  const book = new SecretBook();
  const owners = new IdOwners();
  const answers = new AnswerMemo();
  const tally = new Tally('check-traffic', source);
  for (const entry of entries) {
    if ('missing' in entry) {
      tally.upstreamError();
      continue;
    }
    const judgement = judgeExchange(entry.exchange, book, { surface, owners, answers, responseLeaks: () => book.find(entry.fullResponseBody).map((kind) => ({ kind, where: 'body' as const })) });
    tally.add(judgement, `${entry.exchange.method} ${new URL(entry.exchange.url).pathname}`);
  }
  return { report: JSON.parse(book.redact(JSON.stringify(tally.report()))) as TrafficReport, book };
}
