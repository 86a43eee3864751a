// One request header read from IncomingMessage.rawHeaders, without building `req.headers` (node makes that
// object on first use, a cost a hot GET pays for one or two fields). Only for fields node keeps the FIRST
// of when repeated (host, authorization, content-length, content-type …), so the value equals req.headers'.

/** The first value of header `lowerName` (lower-case), or undefined. */
export function headerOf(req: { rawHeaders: readonly string[] }, lowerName: string): string | undefined {
  const raw = req.rawHeaders;
  const length = lowerName.length;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === length && (name === lowerName || name.toLowerCase() === lowerName)) return raw[i + 1];
  }
  return undefined;
}

