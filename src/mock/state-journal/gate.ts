// The durability barrier at the one place every answer passes: the response's first writeHead/write/end.
// If state changed before the answer was built and is not on disk yet, the answer is held until the
// journal has fdatasync'ed it; if that write fails, the answer becomes a 507 (no room) or 503 naming the
// state file and the reason, and the change is undone (unkept.ts).
// Handlers stay unaware of persistence, so operations added later are covered too.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Journal } from './journal.js';
import { UnkeptChange } from './unkept.js';

type Method = (...args: unknown[]) => unknown;

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Wires one request/response pair to the journal. */
export function guardResponse(journal: Journal, req: IncomingMessage, res: ServerResponse): void {
  if (!READ_METHODS.has(req.method ?? 'GET')) {
    journal.mutatingRequests++;
    res.once('close', () => journal.mutatingRequests--);
  }
  const target = res as unknown as Record<'writeHead' | 'write' | 'end', Method>;
  const original = { writeHead: target.writeHead, write: target.write, end: target.end };
  let state: 'open' | 'held' | 'passed' = 'open';
  const queued: [Method, unknown[]][] = [];
  const pass = () => {
    state = 'passed';
    target.writeHead = original.writeHead;
    target.write = original.write;
    target.end = original.end;
  };
  /** True while the answer is held. */
  const held = (): boolean => {
    if (state !== 'open') return state === 'held';
    const wait = journal.barrier();
    if (!wait) {
      pass();
      return false;
    }
    state = 'held';
    wait.then(
      () => {
        pass();
        for (const [method, args] of queued) method.apply(res, args);
      },
      (error: Error) => {
        pass();
        refuse(res, error);
      },
    );
    return true;
  };
  const wrap = (name: 'writeHead' | 'write' | 'end', result: (res: ServerResponse) => unknown): Method =>
    function (this: unknown, ...args: unknown[]) {
      if (!held()) return original[name].apply(res, args);
      queued.push([original[name], args]);
      return result(res);
    };
  target.writeHead = wrap('writeHead', (r) => r);
  target.write = wrap('write', () => true);
  target.end = wrap('end', (r) => r);
}

function refuse(res: ServerResponse, error: Error): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify({ message: `${error instanceof UnkeptChange && error.status === 507 ? 'Insufficient storage' : 'Service unavailable'}: ${error.message}` });
  for (const name of res.getHeaderNames()) if (name.startsWith('content-')) res.removeHeader(name);
  // 507 Insufficient Storage when the disk is full (the change was refused, the mock goes on), else 503.
  const status = error instanceof UnkeptChange ? error.status : 503;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
