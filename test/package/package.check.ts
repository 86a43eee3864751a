// The packed package, installed into an empty project and used as a consumer would (`npm run test:package`,
// a step of .ci/run): the exports map against the tarball, attw and publint, every entry from ESM, the root
// from CommonJS, a typed consumer under node16 and bundler resolution, the CLI, and what the root loads.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installWithFixtures, loadedSources, node, recordedModules, repoRoot, type Installed } from './support/installed.js';

type ExportTarget = string | { types?: string; default?: string };
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  exports: Record<string, ExportTarget>;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
};

let pkg: Installed;

beforeAll(() => {
  pkg = installWithFixtures();
});

afterAll(() => pkg?.remove());

describe('the tarball', () => {
  it('holds every file the exports map and the bin name (a missing build fails here)', () => {
    const files = new Set(pkg.files.map((file) => `./${file}`));
    const missing: string[] = [];
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (subpath.includes('*')) continue; // patterns: the JSON imports below resolve one
      for (const file of typeof target === 'string' ? [target] : [target.types, target.default]) {
        if (file && !files.has(file)) missing.push(`exports["${subpath}"] → ${file}`);
      }
    }
    for (const [name, file] of Object.entries(manifest.bin)) {
      if (!files.has(file.startsWith('./') ? file : `./${file}`)) missing.push(`bin.${name} → ${file}`);
    }
    expect(missing, `not in the tarball (run \`npm run build\`; check package.json "files"): ${missing.join(', ')}`).toEqual([]);
  });

  it('carries compiled code only: no TypeScript sources beside dist/, no source maps, no tests', () => {
    const sources = pkg.files.filter((file) => (file.endsWith('.ts') && !file.endsWith('.d.ts')) || file.endsWith('.map') || /\.test\.|tsbuildinfo/.test(file));
    expect(sources).toEqual([]);
  });

  it.concurrent('passes attw (ESM only: node16 ESM and bundler resolution of every entry)', async () => {
    const attw = join(repoRoot, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
    const result = await node(pkg.dir, [attw, pkg.tarball, '--profile', 'esm-only', '--format', 'ascii']);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  });

  it.concurrent('passes publint with no error, warning or suggestion', async () => {
    const { publint } = await import('publint');
    const { formatMessage } = await import('publint/utils');
    const bytes = readFileSync(pkg.tarball);
    const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const { messages, pkg: packageJson } = await publint({ pack: { tarball }, level: 'suggestion' });
    expect(messages.map((message) => `${message.type}: ${formatMessage(message, packageJson) ?? message.code}`)).toEqual([]);
  });

  it('installs its runtime dependencies only: no TypeScript compiler or loader', () => {
    const lock = JSON.parse(readFileSync(join(pkg.app, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    const installed = Object.keys(lock.packages).map((path) => path.replace(/^.*node_modules\//, ''));
    for (const name of ['tsx', 'esbuild', 'typescript', 'vitest']) expect(installed).not.toContain(name);
    for (const name of Object.keys(manifest.dependencies)) expect(installed).toContain(name);
  });
});

describe('a consumer of the installed package', () => {
  it('(a) imports every entry point from an ES module', async () => {
    const result = await node(pkg.app, ['esm-entries.mjs']);
    expect(result.stderr).toBe('');
    const seen = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(seen).toEqual({
      root: {
        createQueueClient: 'function', createRestClient: 'function', createRestV2Client: 'function', createGraphqlClient: 'function',
        validateRequest: 'function', loadValidators: 'function', migrate: 'object', ApiError: 'function', startMock: 'undefined',
      },
      validation: { validateRequest: 'function', validate: 'object', schemas: 'object' },
      mock: { startMock: 'function', FAULT_NAMES: 'object' },
      conform: { runConformance: 'function', rules: 'object' },
      proxy: { startProxy: 'function', checkTraffic: 'function' },
      docs: { buildSite: 'function', writeSite: 'function' },
      pact: { checkPactFile: 'function', createStateHandlers: 'function' },
      name: 'compute-contract',
      restV1Title: 'string',
      queueIssues: [{ path: '/body/policy/ttl', message: 'must be >= 10000' }],
    });
  });

  it('(b) require()s the root entry from CommonJS', async () => {
    const result = await node(pkg.app, ['cjs-root.cjs']);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ createQueueClient: 'function', ApiError: 'function', issues: [] });
  });

  it.concurrent.each(['node16', 'bundler'])('(c) type-checks a typed consumer with moduleResolution %s', async (resolution) => {
    const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await node(pkg.app, [tsc, '-p', `tsconfig.${resolution}.json`]);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('(d) runs `compute-contract --help` from the installed bin, loading no command', async () => {
    const record = join(pkg.dir, 'help-loads.txt');
    const result = await node(pkg.app, ['--import', './load-recorder.mjs', 'node_modules/.bin/compute-contract', '--help'], { LOAD_RECORD: record });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: compute-contract <command>/);
    const loaded = recordedModules(pkg.app, record);
    expect(loaded).toContain('compute-contract/bin/compute-contract.js');
    expect(loadedSources(loaded).filter((source) => !source.startsWith('compute-contract/bin/'))).toEqual(['src/cli/main.ts']);
  });

  it('(d) starts the mock from the installed bin, gets an answer, and stops it with SIGTERM', async () => {
    const child = spawn(process.execPath, ['node_modules/.bin/compute-contract', 'mock', '--host', '127.0.0.1', '--port', '0'], { cwd: pkg.app });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const graphqlUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner within 30 s: ${stdout} ${stderr}`)), 30_000);
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          const match = /GraphQL:\s+(\S+)/.exec(stdout);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
        child.on('close', () => reject(new Error(`mock exited before its banner: ${stderr}`)));
      });
      expect(stdout).toMatch(/REST v1:\s+http:\/\/127\.0\.0\.1:\d+\/v1/);
      const answer = await fetch(graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ myself { id } }' }) });
      expect(answer.status).toBe(401); // an account read without a key: the mock is up and checks auth
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toContain('SIGTERM, shutting down');
  });
});

describe('the installed commands read only files the package ships', () => {
  it('`compute-contract conform --tier safe` runs every selected check without a crash (no file missing from the tarball)', async () => {
    const reports = join(pkg.dir, 'conform-reports');
    const result = await node(pkg.app, ['node_modules/.bin/compute-contract', 'conform', '--tier', 'safe', '--quiet', '--reports', reports]);
    expect(result.stderr).toBe('');
    const report = JSON.parse(readFileSync(join(reports, 'conformance-report.json'), 'utf8')) as { results: { id: string; reason?: string }[] };
    expect(report.results.length).toBeGreaterThan(100);
    expect(report.results.filter((rule) => /check crashed/.test(rule.reason ?? '')).map((rule) => `${rule.id}: ${rule.reason}`)).toEqual([]);
  });

  it('`compute-contract docs` builds the site from the installed specs, pages and assets', async () => {
    const out = join(pkg.dir, 'docs-site');
    const result = await node(pkg.app, ['node_modules/.bin/compute-contract', 'docs', '--out', out]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('compute-contract');
  });
});

describe('what a caller pays for', () => {
  const heavy = /^(src\/(mock|conform|docs|proxy|pact|agreement|cli)\/|contract-tests\/|generated\/validators\/[\w-]+(\.params)?\.js$|yaml\/|marked\/|fast-check\/|graphql\/|graphql-request\/)/;

  it('importing the root loads no mock, conformance runner, docs builder, YAML, Markdown, fast-check, graphql or validators', async () => {
    const record = join(pkg.dir, 'root-loads.txt');
    const result = await node(pkg.app, ['--import', './load-recorder.mjs', 'root-loads.mjs'], { LOAD_RECORD: record });
    expect(result.stderr).toBe('');
    const sources = loadedSources(recordedModules(pkg.app, record));
    expect(sources).toContain('src/index.ts');
    expect(sources).toContain('src/clients/queue-client.ts');
    expect(sources.filter((source) => heavy.test(source))).toEqual([]);
  });

  it('a queue-only caller loads queue v2 validators on its first status(), never REST v1 or REST v2 ones', async () => {
    const record = join(pkg.dir, 'queue-loads.txt');
    const result = await node(pkg.app, ['--import', './load-recorder.mjs', 'queue-status.mjs'], { LOAD_RECORD: record });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ id: 'job-1', status: 'IN_QUEUE' });
    const validators = loadedSources(recordedModules(pkg.app, record)).filter((source) => source.startsWith('generated/validators/'));
    // runtime.js: the string-length helper every surface's validators share (no surface's validators of its own).
    expect(validators).toEqual(['generated/validators/queue-v2.index.ts', 'generated/validators/queue-v2.js', 'generated/validators/queue-v2.params.js', 'generated/validators/runtime.js']);
  });
});
