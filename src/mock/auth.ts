// API keys and scopes. Bearer header for REST v1 and queue v2; GraphQL also takes ?api_key=.
import type { IncomingMessage } from 'node:http';
import { accountNameProblem, DEFAULT_ACCOUNT } from './accounts.js';
import type { ApiKey } from './options.js';
import { ALL_SCOPES, type Scope } from './types.js';
import { rawHeader } from '../contract/raw-headers.js';

/** A key's grant: its scopes and the account whose resources it sees (also the check's answer: made once per key). */
interface Grant {
  ok: true;
  scopes: ReadonlySet<Scope>;
  account: string;
}

export type AuthResult = Grant | { ok: false; message: string };

const ANY_KEY: Grant = { ok: true, scopes: new Set(ALL_SCOPES), account: DEFAULT_ACCOUNT };

export class KeyRing {
  private readonly keys = new Map<string, Grant>();

  constructor(
    keys: readonly ApiKey[],
    /** Fault `no-401-on-bad-key`: any non-empty unknown key is accepted with every scope. */
    private readonly acceptUnknown = false,
  ) {
    for (const k of keys) this.keys.set(k.key, { ok: true, scopes: new Set(k.scopes), account: k.account ?? DEFAULT_ACCOUNT });
  }

  check(key: string | undefined, scope: Scope | undefined): AuthResult {
    if (!key) return { ok: false, message: 'Unauthorized: missing API key' };
    let grant = this.keys.get(key);
    if (!grant && this.acceptUnknown) grant = ANY_KEY;
    if (!grant) return { ok: false, message: 'Unauthorized: invalid API key' };
    if (scope && !grant.scopes.has(scope)) return { ok: false, message: `Unauthorized: API key lacks the '${scope}' scope` };
    return grant;
  }
}

/** The last Authorization value read and its key: a client sends the same header on every request. */
let lastAuthorization = '';
let lastKey: string | undefined;

/** `Authorization: Bearer KEY` (a bare `Authorization: KEY`, shown in some official docs, is accepted too). */
export function bearerKey(req: IncomingMessage): string | undefined {
  const header = rawHeader(req.rawHeaders, 'authorization');
  if (!header) return undefined;
  if (header === lastAuthorization) return lastKey;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  const key = (match ? match[1]!.trim() : header.trim()) || undefined;
  lastAuthorization = header;
  lastKey = key;
  return key;
}

/**
 * Parses `KEY[:SCOPES][@ACCOUNT]` (CLI / keys file). Without scopes the key gets every scope; without
 * `@ACCOUNT` it belongs to the default account. An `@` followed by text holding `:` is part of the key
 * (account names never hold `:`), so keys like `me@host:read` keep their meaning.
 */
export function parseKeySpec(spec: string): ApiKey {
  const at = spec.lastIndexOf('@');
  if (at > 0 && !spec.slice(at + 1).includes(':')) {
    const account = spec.slice(at + 1);
    const problem = accountNameProblem(account);
    if (problem) throw new Error(`${problem} (key spec KEY[:SCOPES][@ACCOUNT])`);
    return { ...parseScopedKey(spec.slice(0, at)), account };
  }
  return parseScopedKey(spec);
}

function parseScopedKey(spec: string): ApiKey {
  const index = spec.lastIndexOf(':');
  if (index <= 0) return { key: spec, scopes: ALL_SCOPES };
  const key = spec.slice(0, index);
  const scopes = spec.slice(index + 1).split(',').map((s) => s.trim()).filter(Boolean);
  for (const scope of scopes) {
    if (!(ALL_SCOPES as readonly string[]).includes(scope)) throw new Error(`unknown scope '${scope}' (known: ${ALL_SCOPES.join(', ')})`);
  }
  return { key, scopes: scopes as Scope[] };
}
