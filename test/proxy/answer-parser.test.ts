import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerParseError, AnswerParser } from '../../src/proxy/answer-parser.js';

interface Seen {
  heads: { status: number; message: string; rawHeaders: string[] }[];
  body: Buffer[];
  ends: number;
}

function parserFor(method = 'GET', maxHeadBytes = 64 * 1024): { parser: AnswerParser; seen: Seen } {
  const seen: Seen = { heads: [], body: [], ends: 0 };
  const parser = new AnswerParser({
    head: (status, message, rawHeaders) => seen.heads.push({ status, message, rawHeaders }),
    data: (chunk) => seen.body.push(Buffer.from(chunk)),
    end: () => seen.ends++,
  }, method === 'HEAD', maxHeadBytes);
  return { parser, seen };
}

/** Feeds `bytes` cut at `cuts` (positions, any order). */
function feedInPieces(parser: AnswerParser, bytes: Buffer, cuts: number[]): void {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    if (cut > from) parser.feed(bytes.subarray(from, cut));
    from = Math.max(from, cut);
  }
}

const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/).filter((name) => !['content-length', 'transfer-encoding', 'connection'].includes(name.toLowerCase()));
const value = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,30}[\x21-\x7e])?$/);

describe('AnswerParser (the proxy\'s reader of upstream answers)', () => {
  it('reads status, raw headers and body whatever the framing and however TCP cuts the bytes; 1xx answers are skipped', () => {
    fc.assert(
      fc.property(
        fc.record({
          status: fc.integer({ min: 200, max: 599 }).filter((s) => s !== 204 && s !== 304),
          message: fc.constantFrom('OK', 'Not Found', '', 'Some Reason'),
          headers: fc.array(fc.tuple(token, value), { maxLength: 6 }),
          body: fc.uint8Array({ maxLength: 3000 }),
          framing: fc.constantFrom('length', 'chunked', 'close'),
          chunkSizes: fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 8 }),
          interim: fc.constantFrom(0, 1, 2),
          cuts: fc.array(fc.nat(), { maxLength: 12 }),
        }),
        ({ status, message, headers, body, framing, chunkSizes, interim, cuts }) => {
          const raw = headers.flat();
          const framingHeaders = framing === 'length' ? ['Content-Length', String(body.length)] : framing === 'chunked' ? ['Transfer-Encoding', 'chunked'] : [];
          let text = '';
          for (let i = 0; i < interim; i++) text += 'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n';
          text += `HTTP/1.1 ${status}${message ? ` ${message}` : ''}\r\n`;
          for (let i = 0; i < raw.length; i += 2) text += `${raw[i]}:  ${raw[i + 1]} \r\n`;
          if (framingHeaders.length) text += `${framingHeaders[0]}: ${framingHeaders[1]}\r\n`;
          const parts: Buffer[] = [Buffer.from(`${text}\r\n`, 'latin1')];
          const bytes = Buffer.from(body);
          if (framing === 'chunked') {
            let from = 0;
            for (let i = 0; from < bytes.length; i++) {
              const size = Math.min(chunkSizes[i % chunkSizes.length]!, bytes.length - from);
              parts.push(Buffer.from(`${size.toString(16)}${i % 2 ? ';ext=1' : ''}\r\n`), bytes.subarray(from, from + size), Buffer.from('\r\n'));
              from += size;
            }
            parts.push(Buffer.from('0\r\nX-Trailer: t\r\n\r\n'));
          } else {
            parts.push(bytes);
          }
          const { parser, seen } = parserFor();
          feedInPieces(parser, Buffer.concat(parts), cuts);
          if (framing === 'close') {
            expect(parser.done).toBe(false);
            parser.finish();
          }
          expect(seen.heads).toEqual([{ status, message, rawHeaders: [...raw, ...framingHeaders] }]);
          expect(Buffer.concat(seen.body).equals(bytes)).toBe(true);
          expect(seen.ends).toBe(1);
          expect(parser.reusable).toBe(framing !== 'close');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('an answer to HEAD, a 204 and a 304 end at their head, Content-Length or not', () => {
    for (const [method, head] of [['HEAD', 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n'], ['GET', 'HTTP/1.1 204 No Content\r\n\r\n'], ['GET', 'HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n']] as const) {
      const { parser, seen } = parserFor(method);
      parser.feed(Buffer.from(head));
      expect([parser.done, parser.reusable, seen.ends, seen.body.length]).toEqual([true, true, 1, 0]);
    }
  });

  it('keeps the connection only when the answer allows it', () => {
    const reusable = (text: string) => {
      const { parser } = parserFor();
      parser.feed(Buffer.from(text));
      return parser.done && parser.reusable;
    };
    expect(reusable('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')).toBe(true);
    expect(reusable('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok')).toBe(false);
    expect(reusable('HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok')).toBe(false);
    expect(reusable('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok')).toBe(true);
    expect(reusable('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\nok\r\n0\r\n\r\n')).toBe(false);
    // Bytes past the answer's end: out of step, not reused.
    expect(reusable('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokEXTRA')).toBe(false);
    // Bare LF line ends are accepted (RFC 9112 §2.2).
    expect(reusable('HTTP/1.1 200 OK\nContent-Length: 2\n\nok')).toBe(true);
  });

  it('refuses malformed answers with AnswerParseError, never a partial success', () => {
    const bad = [
      'HTTP/2 200 OK\r\n\r\n', 'HTTP/1.1 20 OK\r\n\r\n', 'HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n', 'HTTP/1.1 200 OK\r\n folded: x\r\n\r\n',
      'HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n', 'HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n', 'HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n',
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokX\r\n',
    ];
    for (const text of bad) expect(() => parserFor().parser.feed(Buffer.from(text)), text).toThrow(AnswerParseError);
    const { parser } = parserFor('GET', 64);
    expect(() => parser.feed(Buffer.from(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(100)}`))).toThrow(/head over 64 bytes/);
    const cut = parserFor().parser;
    cut.feed(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    expect(() => cut.finish()).toThrow(/closed before the answer ended/);
  });
});
