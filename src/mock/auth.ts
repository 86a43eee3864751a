// API keys and scopes. Bearer header for REST v1 and queue v2; GraphQL also takes ?api_key=.
import type { IncomingMessage } from 'node:http';
import type { ApiKey } from './options.js';
import { ALL_SCOPES, type Scope } from './types.js';

export type AuthResult = { ok: true; scopes: ReadonlySet<Scope> } | { ok: false; message: string };

export class KeyRing {
  private readonly keys = new Map<string, ReadonlySet<Scope>>();

  constructor(
    keys: readonly ApiKey[],
    /** Fault `no-401-on-bad-key`: any non-empty unknown key is accepted with every scope. */
    private readonly acceptUnknown = false,
  ) {
    for (const k of keys) this.keys.set(k.key, new Set(k.scopes));
  }

  check(key: string | undefined, scope: Scope | undefined): AuthResult {
    if (!key) return { ok: false, message: 'Unauthorized: missing API key' };
    let scopes = this.keys.get(key);
    if (!scopes && this.acceptUnknown) scopes = new Set(ALL_SCOPES);
    if (!scopes) return { ok: false, message: 'Unauthorized: invalid API key' };
    if (scope && !scopes.has(scope)) return { ok: false, message: `Unauthorized: API key lacks the '${scope}' scope` };
    return { ok: true, scopes };
  }
}

/** `Authorization: Bearer KEY` (a bare `Authorization: KEY`, shown in some official docs, is accepted too). */
export function bearerKey(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  const key = match ? match[1]!.trim() : header.trim();
  return key || undefined;
}

/** Parses `KEY` or `KEY:scope1,scope2` (CLI / keys file). Without scopes the key gets every scope. */
export function parseKeySpec(spec: string): ApiKey {
  const index = spec.lastIndexOf(':');
  if (index <= 0) return { key: spec, scopes: ALL_SCOPES };
  const key = spec.slice(0, index);
  const scopes = spec.slice(index + 1).split(',').map((s) => s.trim()).filter(Boolean);
  for (const scope of scopes) {
    if (!(ALL_SCOPES as readonly string[]).includes(scope)) throw new Error(`unknown scope '${scope}' (known: ${ALL_SCOPES.join(', ')})`);
  }
  return { key, scopes: scopes as Scope[] };
}
