// One request or answer header read from a raw header list (IncomingMessage.rawHeaders: [name, value, …])
// without building `req.headers` (node makes that object on first use, a cost a hot path pays for one or two
// fields). Used by the mock's and the proxy's hot paths. Only for fields node keeps the FIRST of when
// repeated (host, authorization, content-length, content-type, transfer-encoding …), so the value equals
// the one req.headers would give.

/** The first value of header `lowerName` (lower-case), or undefined. */
export function rawHeader(raw: readonly string[], lowerName: string): string | undefined {
  const length = lowerName.length;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === length && (name === lowerName || name.toLowerCase() === lowerName)) return raw[i + 1];
  }
  return undefined;
}
