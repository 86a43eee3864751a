// The rule catalogue (specs/rules.yaml): one row per rule with its level (from its source), surface,
// tier and check, linked to the operations it governs and to the seed sections it comes from;
// filterable by surface, level, tier and check (assets/site.js; every row is in the HTML, so the
// page is complete without script).
import type { Rule } from '../../generated/rules.js';
import { levelOf, RULE_LEVELS } from '../contract/levels.js';
import type { CrossLinks } from './cross-links.js';
import { escapeHtml, ruleAnchor } from './html.js';
import type { PageOutput, SearchEntry } from './search-index.js';
import { markdownPagePath } from './sources.js';
import { SEED_SOURCE, type SeedResolver } from './seed-links.js';

export const RULES_PAGE = 'rules.html';

function select(name: string, label: string, values: readonly string[]): string {
  const options = values.map((v) => `<option value="${escapeHtml(v)}">${escapeHtml(v)}</option>`).join('');
  return `<label><span>${escapeHtml(label)}</span><select data-filter="${escapeHtml(name)}"><option value="">all</option>${options}</select></label>`;
}

const distinct = (rules: readonly Rule[], pick: (r: Rule) => string) => [...new Set(rules.map(pick))].sort();

export function rulesPage(rules: readonly Rule[], links: CrossLinks, seed: SeedResolver | undefined): PageOutput {
  const entries: SearchEntry[] = [{ t: 'Rule catalogue', u: RULES_PAGE, k: 'page', d: `${rules.length} rules` }];
  const seedPage = markdownPagePath(SEED_SOURCE);
  const rows = rules.map((rule) => {
    const level = levelOf(rule.source);
    entries.push({ t: rule.id, u: `${RULES_PAGE}#${ruleAnchor(rule.id)}`, k: `rule (${rule.surface}, ${level})`, d: rule.title });
    const operations = links.operationsOf(rule.id).map((op) =>
      `<a href="${escapeHtml(`${op.page}#${op.anchor}`)}" title="${escapeHtml(`${op.specLabel}: ${op.signature}`)}">${escapeHtml(op.operationId)}</a> <small>${escapeHtml(op.specLabel)}</small>`);
    const unresolved = (rule.operations ?? []).filter((id) => !links.operationsOf(rule.id).some((op) => op.operationId === id));
    const seedRefs = rule.seed.split('; ').map((ref) => {
      const target = seed?.(ref);
      return target ? `<a href="${escapeHtml(`${seedPage}#${target.anchor}`)}">${escapeHtml(ref)}</a>` : escapeHtml(ref);
    });
    const values = rule.values ? `<details><summary>values</summary><pre class="json"><code>${escapeHtml(JSON.stringify(rule.values, null, 2))}</code></pre></details>` : '';
    const why = rule['why-not-black-box'] ? `<p class="why">Not black-box: ${escapeHtml(rule['why-not-black-box'])}</p>` : '';
    return `<tr id="${escapeHtml(ruleAnchor(rule.id))}" class="rule" data-surface="${escapeHtml(rule.surface)}" data-level="${level}" data-tier="${escapeHtml(rule.tier)}" data-check="${escapeHtml(rule.check)}">` +
      `<td><a class="rule-id" href="#${escapeHtml(ruleAnchor(rule.id))}">${escapeHtml(rule.id)}</a></td>` +
      `<td>${escapeHtml(rule.title)}${why}${values}</td>` +
      `<td><span class="level level-${level}">${level}</span><br><small>${escapeHtml(rule.source)}</small></td>` +
      `<td>${escapeHtml(rule.surface)}</td><td>${escapeHtml(rule.tier)}</td><td>${escapeHtml(rule.check)}</td>` +
      `<td>${[...operations, ...unresolved.map((id) => `<code>${escapeHtml(id)}</code>`)].join('<br>')}</td>` +
      `<td class="seed-refs">${seedRefs.join('<br>')}</td></tr>`;
  });
  const filters = [
    select('surface', 'Surface', distinct(rules, (r) => r.surface)),
    select('level', 'Level', RULE_LEVELS),
    select('tier', 'Tier', distinct(rules, (r) => r.tier)),
    select('check', 'Check', distinct(rules, (r) => r.check)),
  ].join('');
  const body = `<h1>Rule catalogue <small>${rules.length} rules</small></h1>
<p>Every documented behaviour of the service under a stable id (<code>specs/rules.yaml</code>); the conformance suite has one check per rule.
Levels follow the source: <span class="level level-must">must</span> (stated by the seed), <span class="level level-should">should</span> (observed on the real service), <span class="level level-may">may</span> (assumed where both are silent).</p>
<form class="rule-filters" aria-label="Filter rules">${filters}<output id="rule-count">${rules.length} of ${rules.length} rules</output></form>
<table class="rules-table"><thead><tr><th>ID</th><th>Rule</th><th>Level</th><th>Surface</th><th>Tier</th><th>Check</th><th>Operations</th><th>Seed</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
  return { path: RULES_PAGE, title: 'Rule catalogue', body, entries };
}
