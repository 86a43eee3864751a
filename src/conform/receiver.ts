// Webhook receiver the suite registers as a job's callback URL: 127.0.0.1, ephemeral port, answers
// from a script (e.g. 500, 500, 200), records every call. Stopped by the check's cleanup.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  rawBody: string;
  receivedAt: number;
  answered: number;
}

export interface Receiver {
  url: string;
  calls: ReceivedCall[];
  /** Resolves when at least n calls arrived, or after timeoutMs (real time) with what arrived. */
  waitForCalls(n: number, timeoutMs: number): Promise<ReceivedCall[]>;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

export async function startReceiver(answers: number[] | ((attempt: number) => number) = [200]): Promise<Receiver> {
  const calls: ReceivedCall[] = [];
  const waiters = new Set<() => void>();
  const statusFor = (attempt: number) =>
    typeof answers === 'function' ? answers(attempt) : answers[Math.min(attempt - 1, answers.length - 1)] ?? 200;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown = rawBody;
      try {
        body = JSON.parse(rawBody);
      } catch {
        /* kept as text; the check reports it */
      }
      const answered = statusFor(calls.length + 1);
      calls.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, rawBody, receivedAt: Date.now(), answered });
      res.writeHead(answered, { 'content-type': 'application/json' }).end('{}');
      for (const w of waiters) w();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    calls,
    waitForCalls(n, timeoutMs) {
      if (calls.length >= n) return Promise.resolve(calls);
      return new Promise((resolve) => {
        const done = () => {
          if (calls.length < n && Date.now() < deadline) return;
          clearTimeout(timer);
          waiters.delete(done);
          resolve(calls);
        };
        const deadline = Date.now() + timeoutMs;
        const timer = setTimeout(() => {
          waiters.delete(done);
          resolve(calls);
        }, timeoutMs);
        waiters.add(done);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
