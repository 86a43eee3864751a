/**
 * Secret redaction for everything a client can surface (error messages, bodies, headers, toString()).
 * Two layers: exact known values (the API key, passwords and secret values the caller sent) and
 * shape-based rules (credential-looking keys, `Bearer …`, `api_key=…`), so a secret the server echoes
 * back in an unexpected place is still hidden.
 */

export const REDACTED = '[REDACTED]';

/** Object keys whose values are always hidden in surfaced bodies. `value` covers secretCreate's input. */
const SECRET_KEY = /^(password|accesssecret|apikey|api_key|authorization|secret|secretvalue|value|token|accesstoken|x-api-key|cookie|set-cookie)$/i;
const BEARER = /(bearer\s+)[^\s"',;]+/gi;
const API_KEY_PARAM = /((?:api_key|apikey|access_token)=)[^&\s"'#]+/gi;
/** Shorter values would redact ordinary words ("true", ids); they are still caught by the key rules. */
const MIN_SECRET_LENGTH = 4;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/**
 * A secret-named key of this object. `value` beside `key` is an environment variable ({key, value}),
 * configuration like REST v1's env map, not a secret: hiding it would also hide every name equal to it.
 */
function holdsSecret(key: string, owner: Record<string, unknown>): boolean {
  return isSecretKey(key) && !(key.toLowerCase() === 'value' && typeof owner['key'] === 'string');
}

export class SecretRedactor {
  private readonly secrets = new Set<string>();

  constructor(initial: Iterable<string | undefined> = []) {
    for (const value of initial) this.add(value);
  }

  /** Registers a value that must never be surfaced. Undefined and very short values are ignored. */
  add(value: string | undefined | null): this {
    if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) this.secrets.add(value);
    return this;
  }

  /** Registers every string under a credential-looking key of a request body (password, accessSecret…). */
  addFromBody(body: unknown, depth = 0): this {
    if (depth > 8 || body === null || typeof body !== 'object') return this;
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (typeof value === 'string' && holdsSecret(key, body as Record<string, unknown>)) this.add(value);
      else this.addFromBody(value, depth + 1);
    }
    return this;
  }

  /** A redactor holding this one's secrets plus more; the original is left unchanged. */
  extend(): SecretRedactor {
    const copy = new SecretRedactor();
    for (const value of this.secrets) copy.secrets.add(value);
    return copy;
  }

  text(input: string): string {
    let out = input;
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(REDACTED);
    }
    return out.replace(BEARER, `$1${REDACTED}`).replace(API_KEY_PARAM, `$1${REDACTED}`);
  }

  /** Deep copy of a parsed JSON value with secret keys and known secret strings hidden. */
  value<T>(input: T, depth = 0): T {
    if (typeof input === 'string') return this.text(input) as T;
    if (input === null || typeof input !== 'object' || depth > 16) return input;
    if (Array.isArray(input)) return input.map((item) => this.value(item, depth + 1)) as T;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(input as Record<string, unknown>)) {
      out[key] = holdsSecret(key, input as Record<string, unknown>) && item !== null && item !== undefined ? REDACTED : this.value(item, depth + 1);
    }
    return out as T;
  }

  /** Copy of response headers without credentials. */
  headers(input: Headers | undefined): Headers | undefined {
    if (!input) return undefined;
    const out = new Headers();
    input.forEach((value, key) => out.set(key, isSecretKey(key) ? REDACTED : this.text(value)));
    return out;
  }
}
