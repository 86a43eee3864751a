// Where a request to a load-balancing endpoint's workers is recognised: the path form `/lb/{endpointId}/{path}`
// on the mock's port, or the Host form `{endpointId}.localhost` / `{endpointId}.<--host name>` (RunPod's
// `https://{endpointId}.api.runpod.ai/{path}`). The rest of the path goes to the worker as it came.

export const LB_PATH_PREFIX = '/lb/';

export type LbAddress =
  | { kind: 'lb'; endpointId: string; path: string }
  | { kind: 'bad'; status: number; message: string };

/** Host names under which `{id}.<name>` is an endpoint: `localhost` (RFC 6761 resolves `*.localhost` to loopback) and the mock's own host name. */
export function hostSuffixes(host: string | undefined): string[] {
  const names = ['localhost'];
  if (host && !/^[\d.]+$/.test(host) && !host.includes(':') && host !== 'localhost' && host !== '0.0.0.0') names.push(host.toLowerCase());
  return names;
}

/** The endpoint a Host header names, or undefined when it names none (then the request is the mock's own). */
export function endpointOfHost(hostHeader: string | undefined, suffixes: readonly string[]): string | undefined {
  if (!hostHeader) return undefined;
  // A client sends the same Host on every request: the last answer is kept (a pure function of both inputs).
  if (hostHeader === lastHost.header && suffixes === lastHost.suffixes) return lastHost.endpoint;
  const endpoint = endpointOfHostName(hostHeader, suffixes);
  lastHost = { header: hostHeader, suffixes, endpoint };
  return endpoint;
}

let lastHost: { header: string; suffixes: readonly string[]; endpoint: string | undefined } = { header: '', suffixes: [], endpoint: undefined };

function endpointOfHostName(hostHeader: string, suffixes: readonly string[]): string | undefined {
  const name = hostHeader.replace(/:\d+$/, '').toLowerCase();
  for (const suffix of suffixes) {
    if (!name.endsWith(`.${suffix}`)) continue;
    const label = name.slice(0, -suffix.length - 1);
    if (label !== '' && !label.includes('.')) return label;
  }
  return undefined;
}

/** `..` or `.` as a segment (also %-encoded) would let a path climb out of the endpoint: refused, never normalised. */
function escapes(path: string): boolean {
  return path.split('/').some((segment) => {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      /* a malformed escape is passed on as it came */
    }
    return decoded === '..' || decoded === '.';
  });
}

/** The address of a `/lb/…` path; undefined for any other path. */
export function lbAddressOfPath(path: string): LbAddress | undefined {
  if (!path.startsWith(LB_PATH_PREFIX) && path !== '/lb') return undefined;
  const rest = path.slice(LB_PATH_PREFIX.length);
  const slash = rest.indexOf('/');
  const endpointId = slash === -1 ? rest : rest.slice(0, slash);
  if (endpointId === '') return { kind: 'bad', status: 404, message: 'no endpoint id: the address is /lb/{endpointId}/{path}' };
  return checked(endpointId, slash === -1 ? '/' : rest.slice(slash));
}

export function lbAddressOfHost(endpointId: string, path: string): LbAddress {
  return checked(endpointId, path === '' ? '/' : path);
}

function checked(endpointId: string, path: string): LbAddress {
  if (escapes(endpointId) || escapes(path)) return { kind: 'bad', status: 400, message: `the path ${JSON.stringify(path.slice(0, 200))} has a "." or ".." segment: it would leave the endpoint` };
  return { kind: 'lb', endpointId, path };
}
