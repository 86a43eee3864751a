// `compute-contract proxy` as a process: prints its address, serves the tally, and on SIGTERM writes the
// four reports (secrets redacted) and exits 1 because a must-level violation was seen.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { parseProxyArgs } from '../../src/cli/proxy-command.js';
import { startMock } from '../../src/mock/index.js';
import type { TrafficReport } from '../../src/proxy/index.js';
import { TestBundle } from '../support/bundle.js';

/** The command bundled once (a child through `node --import tsx` transpiles it anew: ~2 s of CPU). */
const command = new TestBundle('cli-proxy', { file: 'src/cli/proxy-command.ts' }, { selfContained: true });
beforeAll(() => command.build());
afterAll(() => command.remove());

const KEY = 'proxy-cli-key-1';
const PASSWORD = 'cli-leaked-password';

describe('compute-contract proxy CLI', () => {
  it('parses its flags and refuses bad ones', () => {
    expect(parseProxyArgs(['--upstream', 'http://127.0.0.1:1', '--port', '0', '--surface', 'queueV2', '--report', 'r', '--level', 'must,should', '--quiet'])).toMatchObject({
      upstream: 'http://127.0.0.1:1', port: 0, host: '127.0.0.1', surface: 'queueV2', reportDir: 'r', levels: new Set(['must', 'should']), quiet: true,
    });
    expect(parseProxyArgs(['--upstream', 'http://x'])).toMatchObject({ port: 8790 });
    expect(() => parseProxyArgs([])).toThrow(/--upstream URL is required/);
    expect(() => parseProxyArgs(['--upstream', 'http://x', '--port', '70000'])).toThrow(/--port/);
    expect(() => parseProxyArgs(['--upstream', 'http://x', '--surface', 'soap'])).toThrow(/--surface/);
    expect(() => parseProxyArgs(['--upstream', 'http://x', '--bogus'])).toThrow();
  });

  it('is listed in the usage and refuses a bad upstream with exit code 2', async () => {
    const log = console.log;
    let usage = '';
    console.log = (text: string) => void (usage += text);
    try {
      await main(['--help']);
    } finally {
      console.log = log;
    }
    expect(usage).toMatch(/proxy +Validating proxy/);
    expect(usage).toMatch(/check-traffic FILE\.har/);
    const write = process.stderr.write;
    process.stderr.write = () => true;
    try {
      expect(await main(['proxy', '--upstream', 'not a url', '--port', '0'])).toBe(2);
    } finally {
      process.stderr.write = write;
    }
  });

  it('runs until SIGTERM, then writes redacted reports and exits 1 on a must violation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-cli-'));
    const mock = await startMock({ port: 0, host: '127.0.0.1', faults: ['password-echoed'], apiKeys: [{ key: KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }] });
    const child = spawn(process.execPath, [command.file, '--upstream', mock.url, '--port', '0', '--report', dir], {
      cwd: new URL('../..', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      let err = '';
      child.stderr.on('data', (chunk) => (err += chunk));
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const match = /proxy: +(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match && out.includes('tally:')) resolve(match[1]!);
        });
        child.on('exit', () => reject(new Error(`exited early: ${out} ${err}`)));
      });
      const created = await fetch(`${url}/v1/containerregistryauth`, {
        method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'reg', username: 'u', password: PASSWORD }),
      });
      expect(created.status).toBe(200);
      const tally = (await (await fetch(`${url}/__proxy/report`)).json()) as TrafficReport;
      expect(tally.violations.map((v) => v.ruleId).sort()).toEqual(['AGREE-VALID-001', 'SECRET-001']);
      const code = await new Promise<number | null>((resolve) => {
        child.on('exit', (c) => resolve(c));
        child.kill('SIGTERM');
      });
      expect(code).toBe(1);
      expect(err).toMatch(/✗ \[must\] SECRET-001 restV1 createContainerRegistryAuth/);
      expect(err).not.toContain(PASSWORD);
      expect(readdirSync(dir).sort()).toEqual(['conformance-report.html', 'conformance-report.json', 'conformance-report.md', 'junit.xml']);
      for (const file of readdirSync(dir)) {
        const text = readFileSync(join(dir, file), 'utf8');
        expect(text, file).not.toContain(PASSWORD);
        expect(text, file).not.toContain(KEY);
      }
      const report = JSON.parse(readFileSync(join(dir, 'conformance-report.json'), 'utf8')) as TrafficReport;
      expect(report.violations.find((v) => v.ruleId === 'SECRET-001')).toMatchObject({ operationId: 'createContainerRegistryAuth', level: 'must' });
      expect(readFileSync(join(dir, 'conformance-report.md'), 'utf8')).toMatch(/\| \*\*FAIL\*\* \| must \| SECRET-001 \|/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
