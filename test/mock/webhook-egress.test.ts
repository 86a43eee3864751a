// Webhooks go only where allowed (OWASP API7): a mock on loopback delivers to loopback and to named
// destinations; one on another host never to an internal address it was not told about. A refused
// destination is logged as refused, never contacted, and the job is unaffected; a name is resolved once
// and the connection goes to the checked address (no DNS rebinding).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../../src/mock/clock.js';
import { parseWebhookAllow, WebhookEgress, type Resolver } from '../../src/mock/jobs/webhook-egress.js';
import { WebhookDispatcher } from '../../src/mock/jobs/webhooks.js';
import { resolveOptions } from '../../src/mock/options.js';
import type { Job } from '../../src/mock/types.js';
import { Harness } from './harness.js';

let receiver: Server;
let hits = 0;
let port = 0;
beforeAll(async () => {
  receiver = createServer((req, res) => {
    hits++;
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

const allow = (...entries: string[]) => entries.map(parseWebhookAllow);

describe('WEBHOOK-EGRESS: which destinations are allowed', () => {
  it('a mock on loopback delivers to loopback and to named destinations only', () => {
    const egress = new WebhookEgress(true, allow('hooks.internal', '203.0.113.0/24', 'ci.example:8443'));
    expect(egress.refusal('127.0.0.1', 80, '127.0.0.1')).toBeUndefined();
    expect(egress.refusal('localhost', 80, '::1')).toBeUndefined();
    expect(egress.refusal('example.com', 443, '93.184.216.34')).toMatch(/not loopback/);
    expect(egress.refusal('10.0.0.5', 80, '10.0.0.5')).toMatch(/not loopback/);
    expect(egress.refusal('hooks.internal', 9000, '10.1.2.3')).toBeUndefined();
    expect(egress.refusal('x', 80, '203.0.113.7')).toBeUndefined();
    expect(egress.refusal('ci.example', 8443, '10.9.9.9')).toBeUndefined();
    expect(egress.refusal('ci.example', 443, '10.9.9.9')).toMatch(/not loopback/);
  });

  it('a mock on another host refuses private, loopback, link-local and reserved addresses not named', () => {
    const egress = new WebhookEgress(false, allow('10.20.0.0/16', '[fd00::1]:8080'));
    for (const address of ['127.0.0.1', '10.0.0.5', '172.16.3.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd12::3', '::ffff:10.0.0.5', '::ffff:127.0.0.1', '224.0.0.1']) {
      expect(egress.refusal('h', 80, address), address).toMatch(/private, loopback, link-local or reserved/);
    }
    for (const address of ['93.184.216.34', '2606:4700::1111', '::ffff:93.184.216.34', '10.20.3.4']) expect(egress.refusal('h', 80, address), address).toBeUndefined();
    expect(egress.refusal('fd00::1', 8080, 'fd00::1')).toBeUndefined();
    expect(egress.refusal('fd00::1', 8081, 'fd00::1')).toMatch(/private/);
  });

  it('reads --webhook-allow entries and refuses malformed ones in one line', () => {
    expect(parseWebhookAllow('Hooks.Example.com:8080')).toEqual({ kind: 'host', host: 'hooks.example.com', port: 8080 });
    expect(parseWebhookAllow('::1')).toEqual({ kind: 'host', host: '::1' });
    expect(parseWebhookAllow('[::1]:99')).toEqual({ kind: 'host', host: '::1', port: 99 });
    expect(parseWebhookAllow('10.0.0.0/8').kind).toBe('cidr');
    for (const bad of ['', 'a b', 'host:0', 'host:99999', '10.0.0.0/33', 'not-ip/8', 'x'.repeat(301)]) expect(() => parseWebhookAllow(bad), bad).toThrow(/--webhook-allow/);
    expect(() => resolveOptions({ webhookAllow: Array.from({ length: 101 }, () => 'a') })).toThrow(/at most 100/);
  });
});

describe('WEBHOOK-EGRESS: resolving once, connecting to the checked address', () => {
  it('resolves a name once and connects to the address it checked, whatever a second lookup would say', async () => {
    let lookups = 0;
    // A rebinding resolver: public (allowed) first, then the loopback receiver.
    const rebinding: Resolver = async () => (lookups++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.9', family: 4 }]);
    const before = hits;
    const outcome = await new WebhookEgress(true, [], rebinding).post(`http://hooks.test:${port}/hook`, '{}');
    expect(outcome).toEqual({ status: 200 });
    expect(lookups).toBe(1);
    expect(hits).toBe(before + 1);
  });

  it('refuses a name that resolves only to internal addresses without connecting', async () => {
    const before = hits;
    const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];
    const outcome = await new WebhookEgress(false, [], toLoopback).post(`http://innocent.example:${port}/hook`, '{}');
    expect(outcome.refused).toMatch(/127\.0\.0\.1 is a private, loopback/);
    expect(hits).toBe(before);
  });

  it('logs a refused destination as refused, never attempts it and never retries', async () => {
    const clock = createClock('virtual', 0);
    const dispatcher = new WebhookDispatcher(clock, { retries: 2, intervalMs: 10_000, successStatus: 200 }, new Set(), new WebhookEgress(false));
    const before = hits;
    dispatcher.jobFinished({ id: 'job-1', status: 'COMPLETED', input: {}, webhook: `http://127.0.0.1:${port}/hook` } as unknown as Job);
    await dispatcher.settle();
    clock.advance(60_000);
    await dispatcher.settle();
    expect(hits).toBe(before);
    expect(dispatcher.log).toEqual([{ jobId: 'job-1', url: `http://127.0.0.1:${port}/hook`, attempt: 1, at: 0, delivered: false, refused: expect.stringMatching(/127\.0\.0\.1 is a private/) }]);
    clock.stop();
  });
});

describe('WEBHOOK-EGRESS: on the mock', () => {
  it('a job whose webhook names a private address completes as usual; the log says refused', async () => {
    const h = await Harness.start();
    try {
      const ep = await h.endpoint();
      const id = await h.run(ep, { mock: { durationMs: 10, output: { ok: true } } }, { webhook: 'http://10.255.255.1:9/hook' });
      await h.advance(10);
      expect((await h.queue(ep, 'GET', `/status/${id}`)).body).toMatchObject({ status: 'COMPLETED', output: { ok: true } });
      const log = (await h.control('GET', '/webhooks')).body.deliveries;
      expect(log).toEqual([expect.objectContaining({ jobId: id, attempt: 1, delivered: false, refused: expect.stringMatching(/10\.255\.255\.1 is not loopback/) })]);
      expect(log[0].error).toBeUndefined();
    } finally {
      await h.close();
    }
  });
});
