// Where a job's webhook may be sent (OWASP API7, server-side request forgery): a mock on loopback delivers
// to loopback and to the destinations `--webhook-allow` names; a mock on any other --host delivers to public
// addresses and to the named ones, never to a private, loopback, link-local or otherwise internal address
// it was not told about. A name is resolved once, the address is checked, and the connection goes to that
// very address (the socket's peer is checked again on connect), so DNS rebinding cannot swap it.
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Most --webhook-allow entries, and the longest one (a host name is at most 253 characters). */
export const MAX_WEBHOOK_ALLOW_ENTRIES = 100;
const MAX_ENTRY_LENGTH = 300;
const ATTEMPT_TIMEOUT_MS = 5_000;

/** One --webhook-allow entry: a host (name or address) with an optional port, or an address range. */
export type AllowEntry = { kind: 'host'; host: string; port?: number } | { kind: 'cidr'; text: string; list: BlockList };

/** Parses `HOST[:PORT]`, `[IPV6][:PORT]` or `ADDRESS/PREFIX`; throws a one-line Error naming the entry. */
export function parseWebhookAllow(entry: string): AllowEntry {
  const text = entry.trim();
  const bad = (why: string) => new Error(`--webhook-allow '${text.slice(0, 80)}': ${why}`);
  if (text === '' || text.length > MAX_ENTRY_LENGTH) throw bad(`must be 1-${MAX_ENTRY_LENGTH} characters`);
  const slash = text.indexOf('/');
  if (slash !== -1) {
    const address = text.slice(0, slash);
    const family = isIP(address);
    const prefix = Number(text.slice(slash + 1));
    if (family === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) throw bad('not an address range ADDRESS/PREFIX');
    const list = new BlockList();
    list.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
    return { kind: 'cidr', text, list };
  }
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const plain = /^([^:[\]]+)(?::(\d+))?$/.exec(text);
  const bare = isIP(text) === 6 ? [text, text] : bracketed ?? plain;
  if (!bare) throw bad('expected HOST[:PORT], [IPV6]:PORT or ADDRESS/PREFIX');
  const host = bare[1]!.toLowerCase();
  if (isIP(host) === 0 && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/.test(host)) throw bad('not a host name or address');
  if (bare[2] === undefined) return { kind: 'host', host: host.replace(/\.$/, '') };
  const port = Number(bare[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw bad('port must be 1-65535');
  return { kind: 'host', host: host.replace(/\.$/, ''), port };
}

/** Internal addresses: never a destination on a non-loopback mock unless named. */
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) INTERNAL.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2002::', 16]] as const) {
  INTERNAL.addSubnet(net, prefix, 'ipv6');
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4 address mapped into IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address it is. */
function unmapped(address: string): { address: string; type: 'ipv4' | 'ipv6' } {
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4) return { address: lower.slice(7), type: 'ipv4' };
  return { address: lower, type: isIP(lower) === 4 ? 'ipv4' : 'ipv6' };
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;
const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

export type Destination = { ok: true; address: string; family: number } | { ok: false; reason: string };

export class WebhookEgress {
  constructor(
    /** The mock listens on loopback only: it delivers to loopback and the named destinations. */
    private readonly mockOnLoopback: boolean,
    private readonly allow: readonly AllowEntry[] = [],
    private readonly resolve: Resolver = systemResolver,
  ) {}

  /** Whether `address` (reached as `host`:`port`) may receive a webhook; undefined = yes, else why not. */
  refusal(host: string, port: number, address: string): string | undefined {
    const { address: ip, type } = unmapped(address);
    if (this.allow.some((entry) => (entry.kind === 'cidr' ? entry.list.check(ip, type) : entry.host === host.toLowerCase() && (entry.port === undefined || entry.port === port)))) return undefined;
    if (this.mockOnLoopback) {
      return LOOPBACK.check(ip, type) ? undefined : `${address} is not loopback and not named by --webhook-allow (a mock on loopback delivers to loopback only)`;
    }
    return INTERNAL.check(ip, type) ? `${address} is a private, loopback, link-local or reserved address not named by --webhook-allow` : undefined;
  }

  /** Resolves the URL's host once and picks an address it may go to. */
  async destination(url: URL): Promise<Destination> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `scheme ${url.protocol} is not http or https` };
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    let addresses: { address: string; family: number }[];
    if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
    else {
      try {
        addresses = await this.resolve(host);
      } catch (error) {
        return { ok: false, reason: `cannot resolve ${host}: ${(error as Error).message}` };
      }
    }
    const reasons: string[] = [];
    for (const candidate of addresses) {
      const why = this.refusal(host, port, candidate.address);
      if (why === undefined) return { ok: true, ...candidate };
      reasons.push(why);
    }
    return { ok: false, reason: reasons[0] ?? `${host} resolved to no address` };
  }

  /**
   * POSTs `body` to `url` through the checked address (or refuses without connecting): `refused` says
   * why nothing was sent; otherwise the answer's `status` or the network `error`.
   */
  async post(rawUrl: string, body: string): Promise<{ status?: number; error?: string; refused?: string }> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return { refused: 'not a URL' };
    }
    const target = await this.destination(url);
    if (!target.ok) return { refused: target.reason };
    return pinnedPost(url, body, target.address, target.family);
  }
}

/** A lookup that answers the checked address whatever it is asked (net may ask for all addresses). */
function pinnedLookup(address: string, family: number): LookupFunction {
  return ((_host: string, options: LookupOptions, done: (error: null, address: string | LookupAddress[], family?: number) => void) => {
    if (options.all) done(null, [{ address, family }]);
    else done(null, address, family);
  }) as LookupFunction;
}

/** One POST whose connection goes to `address` only: the name is not resolved again (no rebinding). */
function pinnedPost(url: URL, body: string, address: string, family: number): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      lookup: pinnedLookup(address, family),
      timeout: ATTEMPT_TIMEOUT_MS,
    }, (res: IncomingMessage) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode }));
      res.on('error', () => resolve({ status: res.statusCode }));
    });
    req.on('socket', (socket) => {
      socket.once('connect', () => {
        // The peer is the address that was checked, or nothing is sent.
        if (unmapped(socket.remoteAddress ?? '').address !== unmapped(address).address) req.destroy(new Error(`connected to ${socket.remoteAddress}, not the checked ${address}`));
      });
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', (error) => resolve({ error: error.message }));
    req.end(body);
  });
}
