// Preflight of the ISOLATION-* rules: do the two keys belong to two accounts? Proved by the accounts'
// own reads — GraphQL `myself { id }` where GraphQL is configured; otherwise the two keys' template
// lists (REST v1 or v2), which prove "one account" when both hold the same ids, and nothing otherwise.
// A second key of the same account would make every ISOLATION rule fail for a reason that is no defect
// of the server: reported once, as their root cause.
import { urlOf } from './surfaces.js';
import type { SurfaceName } from '../contract/surfaces.js';
import type { TargetConfig } from './target.js';

export interface AccountsVerdict {
  surface: SurfaceName;
  ok: boolean;
  detail: string;
}

type Read = { status: number; body?: unknown } | { error: string };

async function read(url: string, init: RequestInit, timeoutMs: number): Promise<Read> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const REFUSED = (what: string, status: number) => `the second API key is refused (${what} answered ${status})`;

async function myselfIds(target: TargetConfig, timeoutMs: number): Promise<AccountsVerdict | undefined> {
  const url = urlOf(target, 'graphql');
  if (!url) return undefined;
  const ask = (key: string) => read(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: 'query { myself { id } }' }),
  }, timeoutMs);
  const [first, second] = await Promise.all([ask(target.apiKey), ask(target.secondApiKey!)]);
  if ('error' in second) return undefined;
  if (second.status === 401 || second.status === 403) return { surface: 'graphql', ok: false, detail: REFUSED('GraphQL myself', second.status) };
  const idOf = (r: Read) => ('status' in r && r.status === 200 ? (r.body as { data?: { myself?: { id?: unknown } } })?.data?.myself?.id : undefined);
  const a = idOf(first);
  const b = idOf(second);
  if (typeof a !== 'string' || typeof b !== 'string') return undefined;
  return a === b
    ? { surface: 'graphql', ok: false, detail: 'the two keys belong to one account (GraphQL myself answers the same id for --api-key and --second-api-key): give a key of another account' }
    : { surface: 'graphql', ok: true, detail: 'GraphQL myself answers two different accounts for the two keys' };
}

async function templateLists(target: TargetConfig, timeoutMs: number): Promise<AccountsVerdict | undefined> {
  const surface: SurfaceName | undefined = urlOf(target, 'restV1') ? 'restV1' : urlOf(target, 'restV2') ? 'restV2' : undefined;
  if (!surface) return undefined;
  const url = `${urlOf(target, surface)}/templates`;
  const ask = (key: string) => read(url, { headers: { authorization: `Bearer ${key}` } }, timeoutMs);
  const [first, second] = await Promise.all([ask(target.apiKey), ask(target.secondApiKey!)]);
  if ('error' in second || 'error' in first) return undefined;
  if (second.status === 401 || second.status === 403) return { surface, ok: false, detail: REFUSED('GET /templates', second.status) };
  const ids = (r: { body?: unknown }) => {
    const list = Array.isArray(r.body) ? r.body : (r.body as { templates?: unknown })?.templates;
    return Array.isArray(list) ? list.map((t) => String((t as { id?: unknown })?.id)).sort().join(',') : undefined;
  };
  const a = ids(first);
  const b = ids(second);
  if (a !== undefined && a !== '' && a === b) {
    return { surface, ok: false, detail: 'the two keys list the same templates (same ids): they look like one account; give a key of another account' };
  }
  return { surface, ok: true, detail: 'not proven (no GraphQL myself on this target): the two keys\' template lists do not show one account; the ISOLATION rules judge the rest' };
}

/** undefined when no configured surface can tell (the rules then judge it themselves). */
export async function proveTwoAccounts(target: TargetConfig, timeoutMs: number): Promise<AccountsVerdict | undefined> {
  if (!target.secondApiKey) return undefined;
  return (await myselfIds(target, timeoutMs)) ?? (await templateLists(target, timeoutMs));
}
