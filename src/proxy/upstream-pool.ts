// Keep-alive connections to a plain-http upstream for the proxy's requests without a body (the polled reads
// that are most of its traffic). Cheaper per exchange than node's http client (no ClientRequest, agent
// bookkeeping or IncomingMessage stream): the request head is written as one buffer and the answer is read by
// AnswerParser. Requests with a body, https upstreams and Expect go through node's client (forward.ts).
// Bounded: at most `maxSockets` connections, later requests wait in order for one.
import { connect, type Socket } from 'node:net';
import { AnswerParser, type AnswerSink } from './answer-parser.js';

export interface UpstreamCallbacks extends AnswerSink {
  /** The exchange failed: before the head (nothing sent to the client yet) or after it (the answer is cut). */
  fail(error: NodeJS.ErrnoException): void;
}

export interface UpstreamCall {
  pause(): void;
  resume(): void;
  /** The client went away: the connection is closed, nothing more is called back. */
  abort(): void;
}

/** The upstream closed the connection before the answer ended (node's client says the same). */
const hangUp = (): NodeJS.ErrnoException => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

/** Methods safe to send again when a kept-alive connection turns out closed before any answer byte. */
const REPLAYABLE = new Set(['GET', 'HEAD', 'OPTIONS']);

class Exchange implements UpstreamCall {
  connection: Connection | undefined;
  parser: AnswerParser;
  received = 0;
  finished = false;
  replayed = false;

  constructor(
    readonly pool: UpstreamPool, readonly method: string, readonly head: Buffer, readonly callbacks: UpstreamCallbacks, maxHeadBytes: number,
  ) {
    this.parser = new AnswerParser(callbacks, method === 'HEAD', maxHeadBytes);
  }

  /** Only while this exchange is its connection's: a late resume must not touch the connection's next exchange. */
  pause(): void {
    if (this.connection?.exchange === this) this.connection.socket.pause();
  }

  resume(): void {
    if (this.connection?.exchange === this) this.connection.socket.resume();
  }

  abort(): void {
    if (this.finished) return;
    this.finished = true;
    this.pool.dropWaiting(this);
    this.connection?.socket.destroy();
  }
}

/** One socket and the exchange it carries now; its listeners are added once, not per exchange. */
class Connection {
  exchange: Exchange | undefined;
  used = 0;

  constructor(readonly pool: UpstreamPool, readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.data(chunk));
    socket.on('end', () => this.ended());
    socket.on('error', (error: NodeJS.ErrnoException) => this.broken(error));
    socket.on('close', () => this.closed());
  }

  carry(exchange: Exchange): void {
    this.exchange = exchange;
    exchange.connection = this;
    this.used++;
    this.socket.write(exchange.head);
  }

  private data(chunk: Buffer): void {
    const exchange = this.exchange;
    if (exchange === undefined) {
      this.socket.destroy(); // bytes nobody asked for: the connection is out of step
      return;
    }
    exchange.received += chunk.length;
    try {
      exchange.parser.feed(chunk);
    } catch (error) {
      this.broken(error as NodeJS.ErrnoException);
      return;
    }
    if (exchange.parser.done) this.settle(exchange);
  }

  private settle(exchange: Exchange): void {
    exchange.finished = true;
    this.exchange = undefined;
    // Flowing again whatever the client's backpressure left it at: an idle connection must see the upstream close.
    this.socket.resume();
    if (exchange.parser.reusable && !this.socket.destroyed) this.pool.release(this);
    else this.socket.destroy();
  }

  private ended(): void {
    const exchange = this.exchange;
    if (exchange === undefined || exchange.finished) return;
    try {
      exchange.parser.finish();
    } catch {
      this.broken(hangUp());
      return;
    }
    this.settle(exchange);
  }

  private broken(error: NodeJS.ErrnoException): void {
    const exchange = this.exchange;
    this.exchange = undefined;
    this.socket.destroy();
    if (exchange === undefined || exchange.finished) return;
    // A kept-alive connection the upstream had closed before reading the request: once more on a fresh one.
    if (this.used > 1 && exchange.received === 0 && !exchange.replayed && REPLAYABLE.has(exchange.method)) {
      exchange.replayed = true;
      exchange.connection = undefined;
      this.pool.send(exchange, true);
      return;
    }
    exchange.finished = true;
    exchange.callbacks.fail(error);
  }

  private closed(): void {
    if (this.exchange !== undefined) this.broken(hangUp());
    this.pool.forget(this);
  }
}

export class UpstreamPool {
  private readonly idle: Connection[] = [];
  private readonly waiting: Exchange[] = [];
  private open = 0;
  private closed = false;

  constructor(
    private readonly hostname: string,
    private readonly port: number,
    private readonly maxHeadBytes: number,
    private readonly maxSockets = 256,
  ) {}

  /** Sends a request without a body; `rawHeaders` as [name, value, …], Host among them. */
  request(method: string, path: string, rawHeaders: readonly string[], callbacks: UpstreamCallbacks): UpstreamCall {
    let head = `${method} ${path} HTTP/1.1\r\n`;
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) head += `${rawHeaders[i]}: ${rawHeaders[i + 1]}\r\n`;
    head += 'Connection: keep-alive\r\n\r\n';
    const exchange = new Exchange(this, method, Buffer.from(head, 'latin1'), callbacks, this.maxHeadBytes);
    this.send(exchange, false);
    return exchange;
  }

  send(exchange: Exchange, fresh: boolean): void {
    if (this.closed) {
      exchange.finished = true;
      exchange.callbacks.fail(Object.assign(new Error('proxy closed'), { code: 'ECONNABORTED' }));
      return;
    }
    if (!fresh) {
      const reused = this.idle.pop();
      if (reused !== undefined) return reused.carry(exchange);
    }
    if (this.open < this.maxSockets) {
      this.open++;
      return new Connection(this, connect({ host: this.hostname, port: this.port })).carry(exchange);
    }
    this.waiting.push(exchange);
  }

  release(connection: Connection): void {
    const next = this.waiting.shift();
    if (next !== undefined) connection.carry(next);
    else this.idle.push(connection);
  }

  forget(connection: Connection): void {
    this.open--;
    const at = this.idle.indexOf(connection);
    if (at !== -1) this.idle.splice(at, 1);
    const next = this.waiting.shift();
    if (next !== undefined) this.send(next, true);
  }

  dropWaiting(exchange: Exchange): void {
    const at = this.waiting.indexOf(exchange);
    if (at !== -1) this.waiting.splice(at, 1);
  }

  close(): void {
    this.closed = true;
    for (const exchange of this.waiting.splice(0)) exchange.abort();
    for (const connection of this.idle.splice(0)) connection.socket.destroy();
  }
}
