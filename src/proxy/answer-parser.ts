// An HTTP/1.1 answer read incrementally from an upstream connection (RFC 9112): status line, headers,
// interim 1xx answers skipped, and the body framed by Content-Length, chunked coding or the connection's
// close. Pure (no sockets): the proxy's upstream pool feeds it bytes in whatever pieces TCP delivers them.
// Header fields are read as latin1, as node does; a malformed answer throws AnswerParseError.

export class AnswerParseError extends Error {
  readonly code = 'HPE_INVALID_ANSWER';
}

export interface AnswerSink {
  head(status: number, message: string, rawHeaders: string[]): void;
  data(chunk: Buffer): void;
  end(): void;
}

const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: ([^\r\n]*))?$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const CRLF_CRLF = Buffer.from('\r\n\r\n');
const LF_LF = Buffer.from('\n\n');
const LINE_END = /\r?\n/;
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,15})[ \t]*(?:;.*)?$/;
/** A chunk-size line or a trailer line longer than this is refused (they are a few bytes). */
const MAX_LINE_BYTES = 8 * 1024;

type Framing = 'none' | 'length' | 'chunked' | 'close';
type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'close' | 'done';

function fail(message: string): never {
  throw new AnswerParseError(`invalid answer from upstream: ${message}`);
}

/** Values of `lowerName`, each comma-separated list split and trimmed. */
function listValues(raw: readonly string[], lowerName: string): string[] | undefined {
  let values: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === lowerName.length && raw[i]!.toLowerCase() === lowerName) {
      values ??= [];
      for (const part of raw[i + 1]!.split(',')) values.push(part.trim().toLowerCase());
    }
  }
  return values;
}

export class AnswerParser {
  private state: State = 'head';
  private pending: Buffer | undefined;
  private remaining = 0;
  private keepAlive = true;
  /** Bytes the connection delivered past this answer's end (the connection cannot be reused then). */
  extra = 0;

  constructor(
    private readonly sink: AnswerSink,
    /** HEAD: an answer without a body whatever its headers say. */
    private readonly bodiless: boolean,
    private readonly maxHeadBytes: number,
  ) {}

  get done(): boolean {
    return this.state === 'done';
  }

  /** The answer ended by its framing and the upstream did not ask to close: the connection can carry another. */
  get reusable(): boolean {
    return this.state === 'done' && this.keepAlive && this.extra === 0;
  }

  feed(chunk: Buffer): void {
    let buffer = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    this.pending = undefined;
    while (buffer.length > 0) {
      switch (this.state) {
        case 'head': {
          // The head's end found natively in the bytes (CRLF CRLF, or bare LF LF, which RFC 9112 lets a recipient accept).
          let end = buffer.indexOf(CRLF_CRLF);
          let separator = 4;
          const bare = buffer.indexOf(LF_LF);
          if (bare !== -1 && (end === -1 || bare < end)) {
            end = bare;
            separator = 2;
          }
          if (end === -1 || end > this.maxHeadBytes) {
            if (end !== -1 || buffer.length > this.maxHeadBytes) fail(`head over ${this.maxHeadBytes} bytes`);
            this.pending = buffer;
            return;
          }
          this.readHead(buffer.toString('latin1', 0, end));
          buffer = buffer.subarray(end + separator);
          break;
        }
        case 'length':
          buffer = this.deliver(buffer);
          if (this.remaining === 0) this.finishAnswer();
          break;
        case 'chunk-size':
        case 'chunk-end':
        case 'trailers': {
          const newline = buffer.indexOf(10);
          if (newline === -1) {
            if (buffer.length > MAX_LINE_BYTES) fail('chunk line too long');
            this.pending = buffer;
            return;
          }
          const line = buffer.toString('latin1', 0, newline > 0 && buffer[newline - 1] === 13 ? newline - 1 : newline);
          buffer = buffer.subarray(newline + 1);
          this.readChunkLine(line);
          break;
        }
        case 'chunk-data':
          buffer = this.deliver(buffer);
          if (this.remaining === 0) this.state = 'chunk-end';
          break;
        case 'close':
          this.sink.data(buffer);
          return;
        case 'done':
          this.extra += buffer.length;
          return;
      }
    }
  }

  /** The upstream closed its side: that ends a body framed by the close; anything else is cut short. */
  finish(): void {
    if (this.state === 'close') {
      this.keepAlive = false;
      this.finishAnswer();
      return;
    }
    if (this.state !== 'done') fail('connection closed before the answer ended');
  }

  /** Hands on the body bytes still owed (`remaining`) from the front of `buffer`; returns what follows them. */
  private deliver(buffer: Buffer): Buffer {
    const take = Math.min(this.remaining, buffer.length);
    this.remaining -= take;
    this.sink.data(take === buffer.length ? buffer : buffer.subarray(0, take));
    return buffer.subarray(take);
  }

  private readHead(text: string): void {
    const lines = text.split(LINE_END);
    const status = STATUS_LINE.exec(lines[0]!);
    if (!status) fail('bad status line');
    const rawHeaders: string[] = [];
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon <= 0 || !TOKEN.test(line.slice(0, colon))) fail('bad header line');
      rawHeaders.push(line.slice(0, colon), line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, ''));
    }
    const code = Number(status[2]);
    if (code === 101) fail('101 Switching Protocols to a request that asked for no upgrade');
    if (code < 200) return; // interim (100 Continue, 103 Early Hints): the final answer follows
    const connection = listValues(rawHeaders, 'connection');
    this.keepAlive = status[1] === '1' ? !connection?.includes('close') : connection?.includes('keep-alive') === true;
    const framing = this.framing(code, rawHeaders);
    this.sink.head(code, status[3] ?? '', rawHeaders);
    if (framing === 'none' || (framing === 'length' && this.remaining === 0)) this.finishAnswer();
    else if (framing === 'length') this.state = 'length';
    else if (framing === 'chunked') this.state = 'chunk-size';
    else {
      this.keepAlive = false;
      this.state = 'close';
    }
  }

  /** RFC 9112 §6.3, in its order. */
  private framing(code: number, rawHeaders: readonly string[]): Framing {
    if (this.bodiless || code === 204 || code === 304) return 'none';
    const codings = listValues(rawHeaders, 'transfer-encoding');
    if (codings !== undefined) {
      // A Content-Length beside a Transfer-Encoding is ignored, and the connection is not reused after it.
      if (listValues(rawHeaders, 'content-length') !== undefined) this.keepAlive = false;
      return codings.at(-1) === 'chunked' ? 'chunked' : 'close';
    }
    const lengths = listValues(rawHeaders, 'content-length');
    if (lengths === undefined) return 'close';
    if (!lengths.every((value) => /^\d{1,15}$/.test(value) && value === lengths[0])) fail('bad Content-Length');
    this.remaining = Number(lengths[0]);
    return 'length';
  }

  private readChunkLine(line: string): void {
    if (this.state === 'chunk-end') {
      if (line !== '') fail('chunk not followed by CRLF');
      this.state = 'chunk-size';
      return;
    }
    if (this.state === 'trailers') {
      // Trailer fields are read and dropped (node's client does not pass them to the answer's headers either).
      if (line === '') this.finishAnswer();
      else if (line.indexOf(':') <= 0) fail('bad trailer line');
      return;
    }
    const size = CHUNK_SIZE.exec(line);
    if (!size) fail('bad chunk size');
    this.remaining = parseInt(size[1]!, 16);
    this.state = this.remaining === 0 ? 'trailers' : 'chunk-data';
  }

  private finishAnswer(): void {
    this.state = 'done';
    this.sink.end();
  }
}
