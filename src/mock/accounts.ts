// Accounts: every API key belongs to one; every resource belongs to the account whose key created it.
// Each account has its own ResourceStore (its own indexes: listing one account never walks another's
// records), and a directory remembers which account owns each id of each kind, so the job engine finds an
// endpoint's settings and the control API can refuse an id another account already uses.
import type { ChangeSink } from './state-journal/tracked-map.js';
import type { ResourceStore } from './state/store.js';

import { DEFAULT_ACCOUNT } from './account-names.js';
export { DEFAULT_ACCOUNT, MAX_ACCOUNT_NAME_LENGTH, accountNameProblem, accountKind, splitAccountKind } from './account-names.js';

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
