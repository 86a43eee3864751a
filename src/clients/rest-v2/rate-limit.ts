/**
 * `RateLimit` / `RateLimit-Policy` (IETF RateLimit header fields draft, structured-field lists) as sent
 * by REST v2 on every authenticated answer:
 *   RateLimit:        "minute";r=0;t=12, "hour";r=100;t=3000
 *   RateLimit-Policy: "minute";q=60;w=60, "hour";q=3000;w=3600
 * The client records the last pair it saw (success or error, every retry attempt) as `client.rateLimit`.
 */

export interface RateLimitWindow {
  /** Policy name (`minute`, `hour`, `day`, …). */
  name: string;
  /** Requests left in the window (`r`). */
  remaining: number;
  /** Seconds until the window resets (`t`). */
  resetSeconds: number;
  /** Requests allowed per window (`q` of RateLimit-Policy). */
  quota?: number;
  /** Window length in seconds (`w` of RateLimit-Policy). */
  windowSeconds?: number;
}

export interface RateLimitState {
  windows: RateLimitWindow[];
  /** `Date.now()` when the answer carrying these headers arrived (resetSeconds counts from here). */
  receivedAt: number;
}

type Params = Record<string, string | number | boolean>;
interface Member {
  name: string;
  params: Params;
}

/** Splits on a separator outside quoted strings (list members on `,`, parameters on `;`). */
function splitOutsideQuotes(value: string, separator: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (quoted && char === '\\') {
      current += char + (value[++i] ?? '');
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      out.push(current);
      current = '';
    } else current += char;
  }
  out.push(current);
  return out.map((part) => part.trim());
}

function bareItem(raw: string): string | number | boolean {
  const text = raw.trim();
  if (text.startsWith('"') && text.endsWith('"') && text.length >= 2) return text.slice(1, -1).replace(/\\(.)/g, '$1');
  if (text === '?1') return true;
  if (text === '?0') return false;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

/** Parses one list field; malformed members are skipped, never thrown. */
export function parseStructuredList(value: string | null | undefined): Member[] {
  if (!value) return [];
  const members: Member[] = [];
  for (const member of splitOutsideQuotes(value, ',')) {
    const [item = '', ...rest] = splitOutsideQuotes(member, ';');
    const name = bareItem(item);
    if (typeof name !== 'string' || name === '') continue;
    const params: Params = {};
    for (const param of rest) {
      const eq = param.indexOf('=');
      const key = (eq < 0 ? param : param.slice(0, eq)).trim().toLowerCase();
      if (key) params[key] = eq < 0 ? true : bareItem(param.slice(eq + 1));
    }
    members.push({ name, params });
  }
  return members;
}

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** Windows from a header pair; undefined when the answer carries no `RateLimit` field. */
export function parseRateLimit(headers: Headers, now: number = Date.now()): RateLimitState | undefined {
  const limit = headers.get('ratelimit');
  if (limit === null) return undefined;
  const policies = new Map(parseStructuredList(headers.get('ratelimit-policy')).map((member) => [member.name, member.params]));
  const windows: RateLimitWindow[] = [];
  for (const { name, params } of parseStructuredList(limit)) {
    const remaining = num(params.r);
    const resetSeconds = num(params.t);
    if (remaining === undefined || resetSeconds === undefined) continue;
    const window: RateLimitWindow = { name, remaining, resetSeconds };
    const policy = policies.get(name);
    const quota = num(policy?.q);
    const windowSeconds = num(policy?.w);
    if (quota !== undefined) window.quota = quota;
    if (windowSeconds !== undefined) window.windowSeconds = windowSeconds;
    windows.push(window);
  }
  return { windows, receivedAt: now };
}
