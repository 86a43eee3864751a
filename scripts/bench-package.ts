/**
 * What a caller pays for the package (issue 19), measured on the packed-and-installed tarball: `npm pack`
 * (which builds dist/), `npm install <tarball>` into an empty project, then whole `node` processes, each
 * figure the median of --runs runs (default 7) taken in interleaved order next to bare `node`,
 * openapi-fetch and runpod-sdk 1.1.2 (both from this repository's devDependencies):
 * - root-entry import: wall time and peak RSS added over a bare node process;
 * - first status() ready: import + client + one status() from a local server (our queue client loads its
 *   queue v2 validators here), next to raw fetch, openapi-fetch and runpod-sdk doing the same;
 * - `compute-contract --help`, and `compute-contract mock` until its banner is printed;
 * - installed size of the consumer's node_modules (disk usage as `du` counts it, and bytes);
 * - typed status() / raw fetch on loopback with the installed client (scripts/bench/status-overhead.ts).
 * Prints a Markdown table (docs/package.md keeps the latest) and the raw figures as JSON.
 * Usage: `npm run bench:package [-- --runs N --rounds N]`. Bounded: fixed run counts, loopback only.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packAndInstall, repoRoot, type Installed } from './package/pack-install.js';
import { measureStatusOverhead, median, startFixedJsonServer, type CreateQueueClient } from './bench/status-overhead.js';

const numberArg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const RUNS = Math.max(5, numberArg('--runs', 7));
const ROUNDS = numberArg('--rounds', 21);

interface Sample {
  wallMs: number;
  /** User + system CPU of the whole process: far less sensitive than wall time to other load on the machine. */
  cpuMs: number;
  maxRssKiB: number;
}

/** One whole node process running `code` as an ES module; wall time from spawn to exit, peak RSS it reports. */
function runProcess(code: string, cwd: string): Promise<Sample> {
  const program = `${code}\nconst cpu = process.cpuUsage();\nprocess.stdout.write('\\n' + JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS, cpuMs: (cpu.user + cpu.system) / 1000 }));`;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', program], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`process failed (${code}): ${stderr.slice(-2000)}`));
      const last = stdout.trim().split('\n').pop() ?? '{}';
      const reported = JSON.parse(last) as { maxRssKiB: number; cpuMs: number };
      resolve({ wallMs, cpuMs: reported.cpuMs, maxRssKiB: reported.maxRssKiB });
    });
  });
}

/** Wall time of a command (node + args) until it exits. */
function runCommand(args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

/** Wall time from spawning `compute-contract mock` to its banner (the GraphQL line), then stops it. */
function timeMockBanner(bin: string, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, 'mock', '--host', '127.0.0.1', '--port', '0'], { cwd });
    let stdout = '';
    let bannerMs: number | undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (bannerMs === undefined && /GraphQL:\s+\S+/.test(stdout)) {
        bannerMs = performance.now() - started;
        child.kill('SIGTERM');
      }
    });
    child.on('close', () => {
      clearTimeout(timer);
      if (bannerMs === undefined) reject(new Error(`mock printed no banner: ${stdout}`));
      else resolve(bannerMs);
    });
  });
}

/** Disk usage as `du -sk` reports it (KiB), apparent bytes, and the number of installed packages. */
function installedSize(nodeModules: string) {
  const du = spawnSync('du', ['-sk', nodeModules], { encoding: 'utf8' });
  let bytes = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) bytes += lstatSync(path).size;
    }
  };
  walk(nodeModules);
  const packages = readdirSync(nodeModules)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) => (name.startsWith('@') ? readdirSync(join(nodeModules, name)).map((inner) => `${name}/${inner}`) : [name]))
    .filter((name) => existsSync(join(nodeModules, name, 'package.json')));
  return { diskKiB: Number(du.stdout.split('\t')[0]), bytes, packages: packages.length };
}

const fileUrl = (path: string) => pathToFileURL(path).href;
const ms = (value: number) => `${Math.round(value)} ms`;
const signedMs = (value: number) => `${value >= 0 ? '+' : ''}${Math.round(value)} ms`;
const signedMiB = (kib: number) => `${kib >= 0 ? '+' : ''}${(kib / 1024).toFixed(1)} MiB`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

async function main() {
  let pkg: Installed | undefined;
  const server = await startFixedJsonServer();
  try {
    pkg = packAndInstall();
    const app = pkg.app;
    const installedPackage = join(app, 'node_modules', 'compute-contract');
    const manifest = JSON.parse(readFileSync(join(installedPackage, 'package.json'), 'utf8')) as { exports: { '.': { default: string } } };
    const root = join(installedPackage, manifest.exports['.'].default);
    const bin = join(app, 'node_modules', 'compute-contract', 'bin', 'compute-contract.js');
    const openapiFetch = join(repoRoot, 'node_modules', 'openapi-fetch', 'dist', 'index.mjs');
    const runpod = join(repoRoot, 'node_modules', 'runpod-sdk', 'dist', 'src', 'index.js');
    if (!existsSync(runpod)) throw new Error(`runpod-sdk not found at ${runpod} (devDependency runpod-sdk 1.1.2)`);
    const statusUrl = `${server.url}/v2/ep-1/status/job-1-u1`;

    const processes: Record<string, string> = {
      bare: '',
      importRoot: `await import(${JSON.stringify(fileUrl(root))});`,
      importOpenapiFetch: `await import(${JSON.stringify(fileUrl(openapiFetch))});`,
      importRunpodSdk: `await import(${JSON.stringify(fileUrl(runpod))});`,
      firstRawFetch: `await (await fetch(${JSON.stringify(statusUrl)})).json();`,
      firstStatus: `const { createQueueClient } = await import(${JSON.stringify(fileUrl(root))});
        await createQueueClient({ endpointBaseUrl: ${JSON.stringify(`${server.url}/v2`)}, endpointId: 'ep-1', apiKey: 'bench-key-0000' }).status('job-1-u1');`,
      firstOpenapiFetch: `const { default: createClient } = await import(${JSON.stringify(fileUrl(openapiFetch))});
        await createClient({ baseUrl: ${JSON.stringify(`${server.url}/v2/ep-1`)} }).GET('/status/{jobId}', { params: { path: { jobId: 'job-1-u1' } } });`,
      firstRunpodSdk: `const { default: runpodSdk } = await import(${JSON.stringify(fileUrl(runpod))});
        await runpodSdk('bench-key-0000', { baseUrl: ${JSON.stringify(`${server.url}/v2`)} }).endpoint('ep-1').status('job-1-u1');`,
    };
    const samples: Record<string, Sample[]> = Object.fromEntries(Object.keys(processes).map((name) => [name, []]));
    const help: number[] = [];
    const banner: number[] = [];
    for (const code of Object.values(processes)) await runProcess(code, app); // warm the file cache once
    for (let run = 0; run < RUNS; run++) {
      const names = run % 2 === 0 ? Object.keys(processes) : Object.keys(processes).reverse();
      for (const name of names) samples[name]!.push(await runProcess(processes[name]!, app));
      help.push(await runCommand([bin, '--help'], app));
      banner.push(await timeMockBanner(bin, app));
    }
    const wall = (name: string) => median(samples[name]!.map((s) => s.wallMs));
    const rss = (name: string) => median(samples[name]!.map((s) => s.maxRssKiB));
    const cpu = (name: string) => median(samples[name]!.map((s) => s.cpuMs));
    const added = (name: string) => ({ wallMs: wall(name) - wall('bare'), cpuMs: cpu(name) - cpu('bare'), rssKiB: rss(name) - rss('bare') });

    const { createQueueClient } = (await import(fileUrl(root))) as { createQueueClient: CreateQueueClient };
    const overhead = await measureStatusOverhead(createQueueClient, { requestsPerRound: 150, rounds: ROUNDS, maxTotalMs: 60_000 });
    const size = installedSize(join(app, 'node_modules'));

    const figures = {
      runs: RUNS,
      bareNode: { wallMs: wall('bare'), cpuMs: cpu('bare'), maxRssKiB: rss('bare') },
      importRoot: added('importRoot'),
      importOpenapiFetch: added('importOpenapiFetch'),
      importRunpodSdk: added('importRunpodSdk'),
      firstStatus: added('firstStatus'),
      firstRawFetch: added('firstRawFetch'),
      firstOpenapiFetch: added('firstOpenapiFetch'),
      firstRunpodSdk: added('firstRunpodSdk'),
      helpMs: median(help),
      mockBannerMs: median(banner),
      installed: size,
      tarball: { packedBytes: pkg.packedBytes, unpackedBytes: pkg.unpackedBytes, files: pkg.files.length },
      statusOverhead: overhead,
    };

    const row = (figure: string, ours: string, others: string, goal: string) => `| ${figure} | ${ours} | ${others} | ${goal} |`;
    const wallCpu = (added: { wallMs: number; cpuMs: number }) => `${signedMs(added.wallMs)} (CPU ${signedMs(added.cpuMs)})`;
    console.log(
      [
        `Whole-process medians of ${RUNS} runs on the packed-and-installed tarball; bare node: ${ms(wall('bare'))} wall, ${ms(cpu('bare'))} CPU, ${(rss('bare') / 1024).toFixed(1)} MiB. Load average at the end: ${loadavg().map((value) => value.toFixed(1)).join(' ')} (${cpus().length} CPUs).`,
        '',
        '| Figure | compute-contract | same run: others | goal |',
        '|---|---|---|---|',
        row('root-entry import: added wall (CPU) / peak memory', `${wallCpu(figures.importRoot)} / ${signedMiB(figures.importRoot.rssKiB)}`,
          `openapi-fetch ${wallCpu(figures.importOpenapiFetch)} / ${signedMiB(figures.importOpenapiFetch.rssKiB)}; runpod-sdk ${wallCpu(figures.importRunpodSdk)} / ${signedMiB(figures.importRunpodSdk.rssKiB)}`,
          '≤ +25 ms / ≤ +10 MiB'),
        row('queue client + its validators, first status() ready: added over a raw fetch\'s first call (over bare node)', `${signedMs(figures.firstStatus.wallMs - figures.firstRawFetch.wallMs)} (CPU ${signedMs(figures.firstStatus.cpuMs - figures.firstRawFetch.cpuMs)}); ${signedMs(figures.firstStatus.wallMs)} / ${signedMiB(figures.firstStatus.rssKiB)} over bare node`,
          `raw fetch ${wallCpu(figures.firstRawFetch)}; openapi-fetch ${wallCpu(figures.firstOpenapiFetch)}; runpod-sdk ${wallCpu(figures.firstRunpodSdk)} (over bare node)`,
          '≤ +40 ms'),
        row('`compute-contract --help`', ms(figures.helpMs), `bare node ${ms(wall('bare'))}`, '≤ 0.3 s'),
        row('`compute-contract mock` to banner', ms(figures.mockBannerMs), '', '≤ 0.6 s'),
        row('installed size (`npm install` of the tarball)', `${(size.diskKiB / 1024).toFixed(1)} MiB on disk (du), ${mb(size.bytes)} in files, ${size.packages} packages`,
          `tarball ${mb(pkg.packedBytes)} packed, ${pkg.files.length} files`, '≤ 20 MB'),
        row('typed status() / raw fetch (loopback, validation and retries on): wall (client CPU)', `${overhead.ratioValidated}× (${overhead.cpu.ratioValidated}×)`,
          `runpod-sdk ${overhead.ratioRunpodSdk}× (${overhead.cpu.ratioRunpodSdk}×); openapi-fetch alone ${overhead.ratioOpenapiFetchAlone}× (${overhead.cpu.ratioOpenapiFetchAlone}×); fetch + timeout signal ${overhead.ratioRawFetchWithTimeout}× (${overhead.cpu.ratioRawFetchWithTimeout}×)`,
          '≤ 1.1× and below runpod-sdk'),
        '',
      ].join('\n'),
    );
    console.log(JSON.stringify(figures, null, 2));
  } finally {
    server.stop();
    pkg?.remove();
  }
}

await main();
