// Who may use the control API (/__control/*: reset, seed, clock, faults …). Without a token only loopback
// peers may; with `--control-token` (COMPUTE_CONTRACT_CONTROL_TOKEN) only requests carrying it, from any
// peer. Anyone else is answered exactly as if the mock had no control API (404 "no route"), so a shared
// mock on --host 0.0.0.0 does not even tell its network that one exists.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** Bounds of a control token: long enough not to be guessed, short enough for one header. */
export const MIN_CONTROL_TOKEN_LENGTH = 16;
export const MAX_CONTROL_TOKEN_LENGTH = 512;
/** The header that carries it: `Authorization: Bearer <token>`. */
export const CONTROL_TOKEN_HEADER = 'authorization';

/** Why a token cannot be used (undefined: it can). Never repeats the token itself. */
export function controlTokenProblem(token: string): string | undefined {
  if (token.length < MIN_CONTROL_TOKEN_LENGTH || token.length > MAX_CONTROL_TOKEN_LENGTH) {
    return `the control token must be ${MIN_CONTROL_TOKEN_LENGTH}-${MAX_CONTROL_TOKEN_LENGTH} characters long`;
  }
  if (!/^[\x21-\x7e]+$/.test(token)) return 'the control token must be printable ASCII without spaces (it travels in an HTTP header)';
  return undefined;
}

/** A loopback address: 127.0.0.0/8, ::1, or IPv4 loopback mapped into IPv6 (::ffff:127.x.y.z). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const bare = address.toLowerCase().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice(7) : bare;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/** A --host that listens on loopback only (a name other than localhost may resolve anywhere). */
export function isLoopbackHost(host: string): boolean {
  return host.toLowerCase() === 'localhost' || isLoopbackAddress(host);
}

/** The one line `mock --host <non-loopback> --control` without a token stops with (exit code 2). */
export function openControlRisk(host: string): string {
  return `--control on --host ${host} would let anyone who can reach the port reset, seed, read and fault-inject this mock; give --control-token TOKEN (or COMPUTE_CONTRACT_CONTROL_TOKEN), or listen on 127.0.0.1`;
}

/** The peer address and headers the access decision reads (a request, or a test's stand-in). */
export interface ControlPeer {
  remoteAddress: string | undefined;
  authorization: string | string[] | undefined;
}

export function peerOf(req: IncomingMessage): ControlPeer {
  return { remoteAddress: req.socket.remoteAddress, authorization: req.headers[CONTROL_TOKEN_HEADER] };
}

/** The access rule of one mock: `allowed(peer)` is true when the control API answers that peer. */
export function controlAccess(token: string | undefined): (peer: ControlPeer) => boolean {
  if (token === undefined) return (peer) => isLoopbackAddress(peer.remoteAddress);
  // Digests of equal length: timingSafeEqual then compares in constant time whatever was sent.
  const expected = digest(token);
  return (peer) => {
    const header = peer.authorization;
    if (typeof header !== 'string' || header.length > MAX_CONTROL_TOKEN_LENGTH + 16) return false;
    const match = /^Bearer +(\S+) *$/i.exec(header);
    return match !== null && timingSafeEqual(digest(match[1]!), expected);
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
