// `/docs` on the mock: only with `docs: true`; GET/HEAD of the site's files with a content security
// policy allowing nothing from outside; redirects, 404 for anything outside the site, 405 for writes.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/mock/index.js';

/** GET with the path sent exactly as written (fetch would normalise `..` away before sending). */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('mock --docs', () => {
  let mock: RunningMock;
  let plain: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, host: '127.0.0.1', docs: true });
    plain = await startMock({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await mock?.close();
    await plain?.close();
  });

  it('serves the site at /docs/ with try-it, without an API key', async () => {
    const redirect = await fetch(`${mock.url}/docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/docs/');
    const index = await fetch(`${mock.url}/docs/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await index.text()).toContain('assets/try-it.js');
    const queue = await (await fetch(`${mock.url}/docs/queue-v2.html`)).text();
    expect(queue).toContain('data-spec="queue-v2" data-method="POST" data-path="/run"');
    const script = await fetch(`${mock.url}/docs/assets/try-it.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const nested = await fetch(`${mock.url}/docs/docs/mock.html`);
    expect(nested.status).toBe(200);
  });

  it('answers HEAD without a body and OPTIONS with Allow; refuses writes with 405', async () => {
    const head = await fetch(`${mock.url}/docs/rules.html`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(1000);
    expect(await head.text()).toBe('');
    const options = await fetch(`${mock.url}/docs/`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const post = await fetch(`${mock.url}/docs/index.html`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('answers 404 for unknown files and for paths leaving the site', async () => {
    for (const path of ['/docs/nope.html', '/docs/../package.json', '/docs/%2e%2e/package.json', '/docs/..%2fpackage.json', '/docs/%E0%A4%A', '/docs/assets/../../src/index.ts', '/docs/%00']) {
      const res = await rawGet(mock.url, path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toMatch(/^no docs page at /);
    }
  });

  it('is not there without docs: true', async () => {
    expect((await fetch(`${plain.url}/docs/`)).status).toBe(404);
  });
});
