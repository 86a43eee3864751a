/**
 * The package as a consumer gets it: `npm pack` (which builds dist/ through `prepare`), then
 * `npm install <tarball>` into an empty temporary project. Dependencies come from the npm cache where it
 * has them (`--prefer-offline`; CI's `npm ci` filled it), else from the registry. Shared by the package
 * checks (test/package/) and `npm run bench:package`.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export interface Installed {
  /** Temporary directory holding the tarball and the consumer project. */
  dir: string;
  tarball: string;
  /** The consumer project: package.json and node_modules/compute-contract with its dependencies. */
  app: string;
  /** Files of the tarball as `npm pack --json` lists them (paths inside the package). */
  files: string[];
  /** Packed (tarball) and unpacked size in bytes, from `npm pack --json`. */
  packedBytes: number;
  unpackedBytes: number;
  remove(): void;
}

function run(command: string, args: string[], cwd: string, what: string): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 150_000, env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}\n${result.stderr ?? ''}`.trim() || String(result.error);
    throw new Error(`${what} failed (exit ${result.status ?? result.signal}):\n${output.slice(-3000)}`);
  }
  return result;
}

export function packAndInstall(): Installed {
  const dir = mkdtempSync(join(tmpdir(), 'cc-package-'));
  try {
    // prepare (npm run build) runs before packing: an up-to-date dist/ costs one incremental tsc pass.
    const packed = run(npm, ['pack', '--json', '--pack-destination', dir], repoRoot, '`npm pack` (build, then pack)');
    // The JSON array is the last thing printed; the build's own output (prepare) may come before it.
    const jsonStart = packed.stdout.search(/^\[$/m);
    if (jsonStart < 0) throw new Error(`\`npm pack --json\` printed no JSON:\n${packed.stdout.slice(-2000)}`);
    const [info] = JSON.parse(packed.stdout.slice(jsonStart)) as {
      filename: string;
      size: number;
      unpackedSize: number;
      files: { path: string }[];
    }[];
    if (!info) throw new Error('`npm pack --json` listed no package');
    const tarball = join(dir, info.filename);
    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
    run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', tarball], app, '`npm install <tarball>` into an empty project');
    return {
      dir,
      tarball,
      app,
      files: info.files.map((file) => file.path),
      packedBytes: info.size,
      unpackedBytes: info.unpackedSize,
      remove: () => rmSync(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
