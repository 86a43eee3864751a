/**
 * The installed package with the consumer fixtures (test/package/consumer/) and the load recorder copied
 * beside it, plus helpers to run node in that project and read what a process loaded.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packAndInstall, repoRoot, type Installed } from '../../../scripts/package/pack-install.js';

export { repoRoot, type Installed };

export function installWithFixtures(): Installed {
  const pkg = packAndInstall();
  const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
  cpSync(here('../consumer'), pkg.app, { recursive: true });
  cpSync(here('./load-recorder.mjs'), join(pkg.app, 'load-recorder.mjs'));
  cpSync(here('./load-recorder-hooks.mjs'), join(pkg.app, 'load-recorder-hooks.mjs'));
  // Node's types for the typed consumer, from the repository (the consumer installs nothing else).
  mkdirSync(join(pkg.app, 'node_modules', '@types'), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules', '@types', 'node'), join(pkg.app, 'node_modules', '@types', 'node'), 'dir');
  return pkg;
}

/** Runs `node …args` in the consumer project; resolves with its output (never rejects). */
export function node(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The sources behind the package files a process loaded: the build bundles them, so each loaded file of
 * dist/esm/ is mapped back to its inputs with esbuild's metafile (dist/meta.json, written by the same build
 * that was packed). Files of other packages are kept as they are (`yaml/dist/index.js` …).
 */
export function loadedSources(loadedFiles: readonly string[]): string[] {
  const meta = JSON.parse(readFileSync(join(repoRoot, 'dist', 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  const sources = new Set<string>();
  for (const file of loadedFiles) {
    if (!file.startsWith('compute-contract/')) {
      sources.add(file);
      continue;
    }
    const output = meta.outputs[file.slice('compute-contract/'.length)];
    if (output) for (const input of Object.keys(output.inputs)) sources.add(input);
    else sources.add(file);
  }
  return [...sources].sort();
}

/** Modules a process loaded (load-recorder.mjs output), as paths relative to the consumer's node_modules. */
export function recordedModules(app: string, recordFile: string): string[] {
  if (!existsSync(recordFile)) return [];
  const prefix = join(app, 'node_modules') + '/';
  const paths = readFileSync(recordFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/^(esm|cjs) /, '').replace(/^file:\/\//, ''))
    .filter((path) => path.startsWith(prefix))
    .map((path) => path.slice(prefix.length));
  return [...new Set(paths)].sort();
}
