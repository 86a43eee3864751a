// One request of the worker runtime to the worker protocol, over node:http(s) with kept-alive connections:
// each job costs two requests (its take and its result), and undici's fetch costs about a millisecond of CPU
// more per request than node:http (bench:worker-protocol, the /runsync p50 a worker process adds).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** The largest answer read (a job-take-batch of jobs with /runsync's largest inputs fits). */
export const MAX_ANSWER_BYTES = 256 * 1024 * 1024;

export interface Answer {
  status: number;
  text: string;
}

const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/** Resolves with the status and the whole body; rejects on a network error, an abort, or an answer past the bound. */
export function httpCall(method: string, url: string, key: string, body: string | undefined, signal: AbortSignal): Promise<Answer> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const headers: Record<string, string | number> = { authorization: key };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(body);
  }
  return new Promise<Answer>((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(target, { method, headers, agent: secure ? agents.https : agents.http, signal }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) return res.destroy(new Error(`the answer exceeds ${MAX_ANSWER_BYTES} bytes`));
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
