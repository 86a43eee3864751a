// Accounts: every API key belongs to one; every resource belongs to the account whose key created it.
// Each account has its own ResourceStore (its own indexes: listing one account never walks another's
// records), and a directory remembers which account owns each id of each kind, so the job engine finds an
// endpoint's settings and the control API can refuse an id another account already uses.
import type { ChangeSink } from './state-journal/tracked-map.js';
import type { ResourceStore } from './state/store.js';

/** The account of every key given without `@ACCOUNT`: today's single identity (`user_mock`). */
export const DEFAULT_ACCOUNT = 'user_mock';
/** Longest account name (documented in docs/mock.md and `mock --help`). */
export const MAX_ACCOUNT_NAME_LENGTH = 64;
/** Letters, digits, `_`, `-`, `.`; starts with a letter or digit (never `:` or `@`, which separate the key spec). */
const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Why `name` is not an account name, or undefined when it is one. */
export function accountNameProblem(name: string): string | undefined {
  if (name === '') return 'the account name after @ is empty';
  if (name.length > MAX_ACCOUNT_NAME_LENGTH) return `the account name is ${name.length} characters long; at most ${MAX_ACCOUNT_NAME_LENGTH} are allowed`;
  if (!ACCOUNT_NAME.test(name)) return `the account name '${name}' may hold only letters, digits, '_', '-' and '.', starting with a letter or digit`;
  return undefined;
}

/** The journal kind of a collection of `account` (the default account keeps the names state files had before accounts). */
export function accountKind(kind: string, account: string): string {
  return account === DEFAULT_ACCOUNT ? kind : `${kind}@${account}`;
}

/** `pods@acme` → { kind: 'pods', account: 'acme' }; `pods` → the default account. */
export function splitAccountKind(stored: string): { kind: string; account: string } {
  const at = stored.indexOf('@');
  return at === -1 ? { kind: stored, account: DEFAULT_ACCOUNT } : { kind: stored.slice(0, at), account: stored.slice(at + 1) };
}

export class Accounts {
  private readonly stores = new Map<string, ResourceStore>();
  /** Per kind (pods, templates, …): the owner account of every stored id. */
  private readonly owners = new Map<string, Map<string, string>>();
  private readonly ownersOf = (kind: string): Map<string, string> => {
    let map = this.owners.get(kind);
    if (!map) this.owners.set(kind, (map = new Map()));
    return map;
  };

  constructor(private readonly createStore: (account: string, ownersOf: (kind: string) => Map<string, string>) => ResourceStore) {}

  /** The store of `account`, created on first use. */
  store(account: string): ResourceStore {
    let store = this.stores.get(account);
    if (!store) {
      this.stores.set(account, (store = this.createStore(account, this.ownersOf)));
      if (this.sink) store.journalTo(this.sink);
    }
    return store;
  }

  private sink: ChangeSink | undefined;

  /** Journals every later change of every account, including accounts created later (--state). */
  journalTo(sink: ChangeSink | undefined): void {
    this.sink = sink;
    for (const store of this.stores.values()) store.journalTo(sink);
  }

  /** The account owning `id` of `kind` (a store collection name), if any. */
  ownerOf(kind: string, id: string): string | undefined {
    return this.owners.get(kind)?.get(id);
  }

  /** The account owning `id` in any collection (faults and the control API's id check). */
  ownerOfAny(id: string): string | undefined {
    for (const map of this.owners.values()) {
      const owner = map.get(id);
      if (owner !== undefined) return owner;
    }
    return undefined;
  }

  get default(): ResourceStore {
    return this.store(DEFAULT_ACCOUNT);
  }

  /** Every account that has a store, default first. */
  entries(): IterableIterator<[string, ResourceStore]> {
    this.store(DEFAULT_ACCOUNT);
    return this.stores.entries();
  }

  /** The store holding `id` of `kind`, or undefined when no account has it. */
  storeOf(kind: string, id: string): ResourceStore | undefined {
    const owner = this.ownerOf(kind, id);
    return owner === undefined ? undefined : this.stores.get(owner);
  }

  clear(): void {
    for (const store of this.stores.values()) store.clear();
  }
}
