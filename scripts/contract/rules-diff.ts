// The rule catalogue's diff, judged for implementers: a server that passed the suite at the last release
// must still pass it. A new `must` rule, a rule raised to `must`, a must rule's pinned values changed or
// widened to operations that already existed are breaking for them; the rest is listed for the notes.
import { parse } from 'yaml';
import { levelOf, type RuleLevel } from '../../src/contract/levels.js';
import type { ContractChange } from './change.js';

export interface RuleFacts {
  id: string;
  title: string;
  surface: string;
  level: RuleLevel;
  check: string;
  values?: Record<string, unknown>;
  operations?: string[];
}

/** The judged facts of every rule of specs/rules.yaml (text). */
export function ruleFacts(yamlText: string): RuleFacts[] {
  const document = parse(yamlText) as { rules?: Record<string, unknown>[] };
  return (document.rules ?? []).map((rule) => ({
    id: String(rule['id']),
    title: String(rule['title']),
    surface: String(rule['surface']),
    level: levelOf(String(rule['source'])),
    check: String(rule['check']),
    ...(rule['values'] ? { values: rule['values'] as Record<string, unknown> } : {}),
    ...(Array.isArray(rule['operations']) ? { operations: (rule['operations'] as unknown[]).map(String) } : {}),
  }));
}

const retired = (rule: RuleFacts) => /^Retired\b/i.test(rule.title);

/** oldOperations: every operationId the last release had (all surfaces), so a rule of a new operation is told apart. */
export function diffRules(before: RuleFacts[], after: RuleFacts[], oldOperations: ReadonlySet<string>): ContractChange[] {
  const changes: ContractChange[] = [];
  const old = new Map(before.map((rule) => [rule.id, rule]));
  const now = new Map(after.map((rule) => [rule.id, rule]));
  const push = (rule: RuleFacts, level: ContractChange['level'], party: ContractChange['party'], action: ContractChange['action'], what: string) =>
    changes.push({ surface: 'rules', level, party, action, subject: rule.id, what: `${rule.id} (${rule.level}, ${rule.surface}): ${what}`, names: [rule.id] });
  for (const rule of after) {
    const was = old.get(rule.id);
    if (!was) {
      const onNewOperationsOnly = (rule.operations?.length ?? 0) > 0 && rule.operations!.every((id) => !oldOperations.has(id));
      if (rule.level === 'must' && !onNewOperationsOnly) push(rule, 'breaking', 'implementer', 'added', `new must rule: ${rule.title}`);
      else push(rule, rule.level === 'must' || rule.level === 'should' ? 'dangerous' : 'safe', 'implementer', 'added', `new ${rule.level} rule${onNewOperationsOnly ? ' of a new operation' : ''}: ${rule.title}`);
      continue;
    }
    if (retired(rule) && !retired(was)) {
      push(rule, 'dangerous', 'caller', 'removed', `retired (callers lose the guarantee): ${rule.title}`);
      continue;
    }
    if (rule.level !== was.level) {
      if (rule.level === 'must') push(rule, 'breaking', 'implementer', 'changed', `raised from ${was.level} to must`);
      else push(rule, 'dangerous', 'caller', 'changed', `lowered from ${was.level} to ${rule.level}`);
    }
    if (JSON.stringify(rule.values ?? {}) !== JSON.stringify(was.values ?? {})) {
      push(rule, rule.level === 'must' ? 'breaking' : 'dangerous', 'implementer', 'changed', `pinned values ${JSON.stringify(was.values ?? {})} -> ${JSON.stringify(rule.values ?? {})}`);
    }
    const widened = (rule.operations ?? []).filter((id) => !(was.operations ?? []).includes(id));
    const narrowed = (was.operations ?? []).filter((id) => !(rule.operations ?? []).includes(id));
    const widenedOld = widened.filter((id) => oldOperations.has(id));
    if (widenedOld.length > 0) push(rule, rule.level === 'must' ? 'breaking' : 'dangerous', 'implementer', 'changed', `now also judges ${widenedOld.join(', ')}`);
    if (widened.length > widenedOld.length) push(rule, 'safe', 'implementer', 'changed', `now also judges the new ${widened.filter((id) => !oldOperations.has(id)).join(', ')}`);
    if (narrowed.length > 0) push(rule, 'dangerous', 'caller', 'changed', `no longer judges ${narrowed.join(', ')}`);
    if (rule.check !== was.check) {
      const nowJudgesServers = was.check === 'mock-only' && rule.check !== 'mock-only';
      push(rule, nowJudgesServers && rule.level === 'must' ? 'breaking' : 'dangerous', 'implementer', 'changed', `check ${was.check} -> ${rule.check}`);
    }
    if (rule.title !== was.title && rule.level === was.level) push(rule, 'dangerous', 'implementer', 'changed', `restated: ${rule.title}`);
  }
  for (const rule of before) {
    if (!now.has(rule.id)) push(rule, 'dangerous', 'caller', 'removed', 'removed from the catalogue (ids are never reused; retire a rule instead)');
  }
  return changes;
}
