// --state FILE: which parts of the mock are stored under which kind, restoring them on start, and
// wiring every change and every answer to the journal (src/mock/state-journal, docs/state.md).
// Kinds: each store collection by its name, `account` (sshKeys), `jobs`, `billedMs` (per endpoint),
// `webhookLog` (by sequence number), `webhookPending` (due attempts) and `builds` (REST v2 endpoint builds,
// each carrying its account; the releases they make live on the endpoint records) and `workerKeys` (each
// endpoint's worker key, so a worker given RUNPOD_AI_API_KEY before a restart still takes jobs after it). The default account's
// collections keep those names (a file written before accounts restores into it); another account's
// are `<kind>@<account>` (`pods@acme`) and its SSH keys `account`/`sshKeys@<account>`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_ACCOUNT, splitAccountKind, type Accounts } from './accounts.js';
import type { Clock } from './clock.js';
import type { JobEngine } from './jobs/engine.js';
import { BUILDS_KIND, type BuildBook, type StoredBuild } from './rest-v2/builds.js';
import type { WebhookDispatcher, WebhookSnapshot } from './jobs/webhooks.js';
import { loadStateFile, StateFileError, type Image } from './state-journal/file.js';
import { REST_V2_COLLECTIONS } from '../contract/url-layout.js';
import { guardResponse } from './state-journal/gate.js';
import { lockStateFile } from './state-journal/lock.js';
import { Journal, type JournalOptions, type JournalSources } from './state-journal/journal.js';
import type { StoreSnapshot } from './state/store.js';
import type { Job } from './types.js';
import { WORKER_KEYS_KIND, type WorkerHub } from './worker-protocol/hub.js';

export { StateFileError };

export interface PersistedParts {
  clock: Clock;
  accounts: Accounts;
  engine: JobEngine;
  webhooks: WebhookDispatcher;
  builds: BuildBook;
  workerHub: WorkerHub;
}

export interface OpenedState {
  journal: Journal;
  image: Image;
}

/**
 * Locks the state file (one mock per file), opens (or creates) it and reads it whole; throws
 * StateFileError when it cannot be used or another mock uses it.
 */
export function openState(file: string, options: JournalOptions = {}): OpenedState {
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  const unlock = lockStateFile(file);
  try {
    const loaded = loadStateFile(file, { warn, convertLegacy });
    // An endpoint id that is a REST v2 collection name could never be reached on queue v2 (/v2/pods/… is REST v2):
    // the mock never issues one, so such a file was written by hand or by something else.
    for (const id of loaded.image.kinds.get('endpoints')?.keys() ?? []) {
      if (REST_V2_COLLECTIONS.has(id)) {
        throw new StateFileError(`state file ${file} holds an endpoint whose id "${id}" is a REST v2 collection name (RESTV2-LAYOUT-001: queue v2 could not reach it); it was left untouched`);
      }
    }
    return { journal: new Journal(file, loaded.bytes, { ...options, warn, unlock }), image: loaded.image };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** Puts the stored state back into the mock's parts (running jobs go back to the queue). */
export function restoreState(image: Image, { accounts, engine, webhooks, builds, workerHub }: PersistedParts): void {
  const values = (kind: string): unknown[] => [...(image.kinds.get(kind)?.values() ?? [])];
  const kinds = new Set(accounts.default.collections.keys());
  const snapshots = new Map<string, Record<string, unknown>>([[DEFAULT_ACCOUNT, {}]]);
  const snapshotOf = (account: string) => {
    let snapshot = snapshots.get(account);
    if (!snapshot) snapshots.set(account, (snapshot = {}));
    return snapshot;
  };
  for (const stored of image.kinds.keys()) {
    const { kind, account } = splitAccountKind(stored);
    if (kinds.has(kind)) snapshotOf(account)[kind] = values(stored);
  }
  for (const [id, keys] of image.kinds.get('account') ?? []) {
    const { kind, account } = splitAccountKind(id);
    if (kind === 'sshKeys') snapshotOf(account)['sshKeys'] = keys;
  }
  for (const [account, snapshot] of snapshots) accounts.store(account).restore(snapshot as Partial<StoreSnapshot>);
  // Keys first: a restored job's dispatch may start a worker process, which is given its endpoint's key.
  for (const [id, key] of image.kinds.get(WORKER_KEYS_KIND) ?? []) if (typeof key === 'string') workerHub.setKey(id, key);
  engine.restore(values('jobs') as Job[]);
  builds.restore(values(BUILDS_KIND) as StoredBuild[]);
  for (const [id, ms] of image.kinds.get('billedMs') ?? []) engine.restoreBilledMs(id, ms as number);
  const log = [...(image.kinds.get('webhookLog') ?? [])].sort(([a], [b]) => Number(a) - Number(b));
  webhooks.restore({
    log: log.map(([, entry]) => entry) as WebhookSnapshot['log'],
    pending: values('webhookPending') as WebhookSnapshot['pending'],
    firstSeq: log.length > 0 ? Number(log[0]![0]) : 0,
  });
}

/** From now on every change of the parts is journaled. */
export function attachJournal(journal: Journal, image: Image, { clock, accounts, engine, webhooks, builds, workerHub }: PersistedParts): void {
  const sources: JournalSources = {
    clockIsState: clock.mode === 'virtual',
    clockNow: () => clock.now(),
    peek(stored, id) {
      const { kind, account } = splitAccountKind(stored);
      const collection = accounts.store(account).collections.get(kind);
      if (collection) return collection.peek(id);
      switch (kind) {
        case 'jobs':
          return engine.peekJob(id);
        case 'billedMs': {
          const ms = engine.billedMs(id);
          return ms > 0 ? ms : undefined;
        }
        case 'account': {
          const keys = splitAccountKind(id);
          return keys.kind === 'sshKeys' ? accounts.store(keys.account).storedSshKeys() : undefined;
        }
        case 'webhookLog':
        case 'webhookPending':
          return webhooks.peek(kind, id);
        case BUILDS_KIND:
          return builds.peek(id);
        case WORKER_KEYS_KIND:
          return workerHub.peekKey(id);
        default:
          return undefined;
      }
    },
    *entries() {
      for (const [, store] of accounts.entries()) {
        for (const map of store.collections.values()) for (const [id, record] of map) yield [map.kind, id, record];
        yield ['account', store.sshKeysId, store.storedSshKeys()];
      }
      for (const job of engine.allJobs()) yield ['jobs', job.id, job];
      for (const [, store] of accounts.entries()) {
        for (const id of store.endpoints.keys()) {
          const ms = engine.billedMs(id);
          if (ms > 0) yield ['billedMs', id, ms];
        }
      }
      yield* webhooks.entries();
      yield* builds.entries();
      yield* workerHub.keyEntries();
    },
  };
  // A change whose record cannot be written is undone here (state-journal/unkept.ts); webhook deliveries
  // and builds are not undone but written again with a later record.
  journal.revert = (stored, id, kept) => {
    const { kind, account } = splitAccountKind(stored);
    const collection = accounts.store(account).collections.get(kind);
    if (collection) {
      if (kept === undefined) collection.delete(id);
      else collection.set(id, kept as { id: string });
      return true;
    }
    switch (kind) {
      case 'jobs':
        engine.revertJob(id, kept as Job | undefined);
        return true;
      case 'billedMs':
        if (kept !== undefined || engine.billedMs(id) > 0) engine.restoreBilledMs(id, (kept as number | undefined) ?? 0);
        return true;
      case 'account': {
        const keys = splitAccountKind(id);
        if (keys.kind !== 'sshKeys') return false;
        accounts.store(keys.account).sshKeys = [...((kept as string[] | undefined) ?? [])];
        return true;
      }
      case WORKER_KEYS_KIND:
        workerHub.setKey(id, kept as string | undefined);
        return true;
      default:
        return false;
    }
  };
  accounts.journalTo(journal);
  engine.journalTo(journal);
  webhooks.sink = journal;
  builds.sink = journal;
  workerHub.sink = journal;
  journal.attach(sources, image.clock, [...image.kinds.values()].some((entities) => entities.size > 0));
}

/** Holds the answer until what it may show is on disk (see state-journal/gate.ts). */
export function guardAnswers(journal: Journal): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => guardResponse(journal, req, res);
}

/** The JSON document format 1 (before the journal): converted once on start. */
interface LegacyStateFile {
  version: number;
  clockNow?: number;
  store?: Record<string, unknown>;
  jobs?: Job[];
  endpointBilledMs?: Record<string, number>;
  webhooks?: WebhookSnapshot;
}

function convertLegacy(document: unknown): Image | undefined {
  const legacy = document as LegacyStateFile | null;
  if (!legacy || typeof legacy !== 'object' || legacy.version !== 1) return undefined;
  const kinds = new Map<string, Map<string, unknown>>();
  const put = (kind: string, id: string, value: unknown) => {
    let map = kinds.get(kind);
    if (!map) kinds.set(kind, (map = new Map()));
    map.set(id, value);
  };
  for (const [kind, records] of Object.entries(legacy.store ?? {})) {
    if (kind === 'sshKeys') put('account', 'sshKeys', records);
    else if (Array.isArray(records)) for (const r of records as { id: string }[]) put(kind, r.id, r);
  }
  for (const job of legacy.jobs ?? []) put('jobs', job.id, job);
  for (const [id, ms] of Object.entries(legacy.endpointBilledMs ?? {})) put('billedMs', id, ms);
  (legacy.webhooks?.log ?? []).forEach((entry, i) => put('webhookLog', String(i), entry));
  for (const p of legacy.webhooks?.pending ?? []) put('webhookPending', `${p.jobId}#${p.attempt}`, p);
  return { kinds, clock: legacy.clockNow };
}
