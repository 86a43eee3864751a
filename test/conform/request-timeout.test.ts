// --request-timeout-ms: a request the target never answers fails its check with the bound named,
// instead of stalling the run; an answered request is unaffected by the bound.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CheckFailure, Http, SecretBook } from '../../src/conform/http.js';
import type { TargetConfig } from '../../src/conform/target.js';

let server: Server;
let base: string;
beforeAll(async () => {
  // Answers /fast at once and never answers anything else.
  server = createServer((req, res) => {
    if (req.url === '/v1/fast') res.end('{"ok":true}');
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('request timeout of the conformance transport', () => {
  test('an unanswered request fails with "no answer within"; an answered one passes under the same bound', async () => {
    const http = new Http({ name: 'silent', apiKey: 'k', workerImage: 'w', restUrl: `${base}/v1` } as TargetConfig, new SecretBook());
    http.requestTimeoutMs = 200;
    const silent = http.raw('GET', `${base}/v1/never`);
    await expect(silent).rejects.toThrow(CheckFailure);
    await expect(silent).rejects.toThrow('GET /v1/never: no answer within 0.2 s');
    for (let i = 0; i < 3; i++) expect((await http.raw('GET', `${base}/v1/fast`)).body).toEqual({ ok: true });
  });
});
