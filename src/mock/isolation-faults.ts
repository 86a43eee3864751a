// The account isolation faults (`--fault NAME`, off by default): each re-creates one way a multi-tenant
// service lets one account reach another's objects, so the ISOLATION-* rules have something to catch.
// Without them a request sees only its caller's account store (src/mock/accounts.ts) and none of this runs.
import type { MockCore } from './core.js';
import type { FaultName } from './options.js';

/** Faults of this module (names in FAULT_NAMES, options.ts). */
export type IsolationFault = Extract<FaultName,
  | 'cross-account-read' | 'cross-account-write' | 'cross-account-list' | 'cross-account-job'
  | 'foreign-reference-accepted' | 'existence-oracle' | 'shared-rate-window'>;

export const ISOLATION_FAULTS: readonly IsolationFault[] = [
  'cross-account-read', 'cross-account-write', 'cross-account-list', 'cross-account-job',
  'foreign-reference-accepted', 'existence-oracle', 'shared-rate-window',
];

export function hasFault(core: MockCore, fault: IsolationFault): boolean {
  const faults = core.options.faults;
  return faults.size > 0 && faults.has(fault);
}

/** True when any isolation fault is on (the hot path checks this once). */
export function anyIsolationFault(core: MockCore): boolean {
  const faults = core.options.faults;
  return faults.size > 0 && ISOLATION_FAULTS.some((f) => faults.has(f));
}

/** The account owning one of the path's ids when the caller's account does not (a foreign id), if any. */
export function foreignOwner(core: MockCore, params: Record<string, string>): string | undefined {
  for (const value of Object.values(params)) {
    const owner = core.accounts.ownerOfAny(value);
    if (owner !== undefined && owner !== core.account) return owner;
  }
  return undefined;
}

export type Isolation =
  /** Serve the request as this account (the read/write/job faults: the owner's store answers). */
  | { kind: 'serve-as'; core: MockCore }
  /** Answer 403 instead of the absent-object answer (fault existence-oracle). */
  | { kind: 'forbidden' }
  | undefined;

/**
 * What an isolation fault makes of a request naming `params` (path ids): `read` for GET/HEAD, `write`
 * otherwise, `job` for queue v2. Undefined when no fault applies (the request is answered normally).
 */
export function isolationFor(core: MockCore, params: Record<string, string>, access: 'read' | 'write' | 'job'): Isolation {
  if (!anyIsolationFault(core)) return undefined;
  const owner = foreignOwner(core, params);
  if (owner === undefined) return undefined;
  if (hasFault(core, 'existence-oracle')) return { kind: 'forbidden' };
  const fault: IsolationFault = access === 'read' ? 'cross-account-read' : access === 'write' ? 'cross-account-write' : 'cross-account-job';
  return hasFault(core, fault) ? { kind: 'serve-as', core: core.forAccount(owner) } : undefined;
}

/** The caller string of the REST v2 quota windows: the account (fault shared-rate-window: one window for everyone). */
export function quotaCaller(core: MockCore, account: string): string {
  return hasFault(core, 'shared-rate-window') ? '*' : account;
}

/**
 * Fault cross-account-list: a list answered over every account (the account filter forgotten). Runs
 * `list` once per account and joins the arrays (a bare array, or the array fields of a wrapper).
 */
export async function listOverAccounts<R extends { status: number; body?: unknown }>(core: MockCore, list: (view: MockCore) => R | Promise<R>): Promise<R> {
  type Body = R['body'];
  const own = await list(core);
  if (own.status !== 200 || own.body === undefined) return own;
  let body: unknown = own.body;
  for (const [account] of core.accounts.entries()) {
    if (account === core.account) continue;
    const other = await list(core.forAccount(account));
    // Only the other account's own records join (catalogue lists are the same for everyone).
    const owned = (item: unknown): boolean => {
      const id = (item as { id?: unknown } | null)?.id;
      return typeof id === 'string' && core.accounts.ownerOfAny(id) === account;
    };
    if (other.status === 200) body = joinLists(body, other.body, owned);
  }
  return { ...own, body: body as Body };
}

function joinLists(into: unknown, from: unknown, owned: (item: unknown) => boolean): unknown {
  if (Array.isArray(into) && Array.isArray(from)) return [...into, ...from.filter(owned)];
  if (into && from && typeof into === 'object' && typeof from === 'object') {
    const out: Record<string, unknown> = { ...(into as Record<string, unknown>) };
    for (const [key, value] of Object.entries(from as Record<string, unknown>)) {
      if (Array.isArray(value) && Array.isArray(out[key])) out[key] = [...(out[key] as unknown[]), ...value.filter(owned)];
    }
    return out;
  }
  return into;
}
