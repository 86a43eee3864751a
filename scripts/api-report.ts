// npm run api:check | api:update — the TypeScript API report of every public entry point (API Extractor).
// The entry points are package.json "exports" entries with a "types" condition, so a new entry point is
// reported without touching this file. One report per entry in etc/api/ (committed):
//   api:check  fails when the exported API differs from the committed report (run in `npm run lint`, so in CI);
//   api:update rewrites the reports (commit them with the change that moved the API).
// Declarations come from `tsc -p tsconfig.build.json` (incremental, the same dist/src the package ships).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExtractorConfig, ExtractorMessage } from '@microsoft/api-extractor';

// API Extractor (and its own TypeScript) loads only when a report is built.
const extractor = () => import('@microsoft/api-extractor');

const root = fileURLToPath(new URL('..', import.meta.url));
export const API_REPORT_DIR = join(root, 'etc', 'api');
const TEMP_DIR = join(root, 'dist', 'api-extractor');
/** Written when the declarations were last built from the sources (tsc leaves .tsbuildinfo alone when nothing changed). */
const STAMP = join(TEMP_DIR, 'declarations-built');
/** The inputs of the last passing check. */
const CHECKED = join(TEMP_DIR, 'checked');

export interface ApiEntry {
  /** The export subpath: ".", "./mock" … */
  subpath: string;
  /** Report file name without ".api.md": compute-contract, compute-contract-mock … */
  reportName: string;
  /** The entry's declaration file, absolute. */
  declarations: string;
}

/** Every "exports" entry of package.json that has types: the public TypeScript API. */
export function apiEntries(packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))): ApiEntry[] {
  const name = String(packageJson.name);
  const entries: ApiEntry[] = [];
  for (const [subpath, target] of Object.entries(packageJson.exports ?? {})) {
    if (subpath.includes('*') || typeof target !== 'object' || target === null) continue;
    const types = (target as Record<string, unknown>)['types'];
    if (typeof types !== 'string') continue;
    const suffix = subpath === '.' ? '' : `-${subpath.replace(/^\.\//, '').replace(/[^\w]+/g, '-')}`;
    entries.push({ subpath, reportName: `${name}${suffix}`, declarations: join(root, types) });
  }
  return entries;
}

function newestChange(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestChange(path));
    else if (/\.(ts|mts|json)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** dist/'s declarations are current when no source, tsconfig or package.json changed since tsc last wrote them. */
function declarationsCurrent(): boolean {
  if (!existsSync(STAMP)) return false;
  const built = statSync(STAMP).mtimeMs;
  const inputs = ['src', 'generated', 'contract-tests'].map((dir) => newestChange(join(root, dir)));
  const files = ['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((file) => statSync(join(root, file)).mtimeMs);
  return Math.max(...inputs, ...files) < built;
}

function buildDeclarations(): void {
  // tsc's incremental check alone parses every file (seconds on 2 cores); nothing changed, nothing to do.
  if (declarationsCurrent()) return;
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'build', 'package.mjs'), '--declarations'], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('api: the declarations did not build (type errors above); fix them before judging the API');
    process.exit(1);
  }
  mkdirSync(TEMP_DIR, { recursive: true });
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}

function configFor(ExtractorConfig: typeof import('@microsoft/api-extractor').ExtractorConfig, entry: ApiEntry): ExtractorConfig {
  return ExtractorConfig.prepare({
    configObjectFullPath: join(root, 'api-extractor.json'),
    packageJsonFullPath: join(root, 'package.json'),
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: entry.declarations,
      bundledPackages: [],
      compiler: {
        overrideTsconfig: {
          compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: ['node'], strict: true, skipLibCheck: true, resolveJsonModule: true, esModuleInterop: true },
          files: [entry.declarations],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: entry.reportName,
        reportFolder: API_REPORT_DIR,
        reportTempFolder: TEMP_DIR,
        includeForgottenExports: false,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      newlineKind: 'lf',
      messages: {
        // The report is the API; doc-comment style (TSDoc) and release tags are not what this gate judges.
        compilerMessageReporting: { default: { logLevel: 'warning' as never } },
        // Analysis notes (forgotten exports, undocumented members) carry source line numbers: kept in the
        // report, any edit above them would fail the check though the API did not change.
        extractorMessageReporting: {
          default: { logLevel: 'none' as never, addToApiReportFile: false },
          'ae-missing-release-tag': { logLevel: 'none' as never, addToApiReportFile: false },
          'ae-internal-missing-underscore': { logLevel: 'none' as never, addToApiReportFile: false },
        },
        tsdocMessageReporting: { default: { logLevel: 'none' as never, addToApiReportFile: false } },
      },
    },
  });
}

/** API Extractor's console notes that the one summary line below replaces. */
const QUIET = new Set(['console-preamble', 'console-compiler-version-notice', 'console-api-report-not-copied', 'console-api-report-copied', 'console-api-report-created', 'console-api-report-unchanged']);

/** Everything a report is made from: the declarations, the committed reports and package.json. */
function inputsKey(): string {
  const hash = createHash('sha256');
  const add = (dir: string, pattern: RegExp) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) add(path, pattern);
      else if (pattern.test(entry.name)) hash.update(path).update(readFileSync(path));
    }
  };
  add(join(root, 'dist', 'src'), /\.d\.ts$/);
  add(join(root, 'dist', 'generated'), /\.d\.ts$/);
  add(API_REPORT_DIR, /\.api\.md$/);
  hash.update(readFileSync(join(root, 'package.json')));
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  return hash.digest('hex');
}

export async function runApiReport(update: boolean): Promise<boolean> {
  buildDeclarations();
  // Most changes leave every declaration as it was (tsc writes the same .d.ts): then the reports are too.
  const key = inputsKey();
  if (!update && existsSync(CHECKED) && readFileSync(CHECKED, 'utf8') === key) {
    console.log('api:check: declarations and etc/api unchanged since the last passing check');
    return true;
  }
  const entries = apiEntries();
  mkdirSync(API_REPORT_DIR, { recursive: true });
  const { CompilerState, Extractor, ExtractorConfig } = await extractor();
  const configs = entries.map((entry) => configFor(ExtractorConfig, entry));
  // One TypeScript program for every entry point: each report reuses it instead of parsing dist/ again.
  const compilerState = CompilerState.create(configs[0]!, { additionalEntryPoints: entries.map((entry) => entry.declarations) });
  const changed: string[] = [];
  const problems: string[] = [];
  entries.forEach((entry, index) => {
    if (!existsSync(entry.declarations)) {
      problems.push(`${entry.subpath}: ${relative(root, entry.declarations)} was not built`);
      return;
    }
    const result = Extractor.invoke(configs[index]!, {
      localBuild: update,
      compilerState,
      showVerboseMessages: false,
      messageCallback: (message: ExtractorMessage) => {
        // API Extractor's own "report changed" notes are replaced by the one summary below.
        if (QUIET.has(String(message.messageId))) message.handled = true;
      },
    });
    if (result.apiReportChanged) changed.push(`${entry.subpath} (etc/api/${entry.reportName}.api.md)`);
    if (result.errorCount > 0) problems.push(`${entry.subpath}: ${result.errorCount} API Extractor error(s) above`);
  });
  // A report whose entry point is gone from "exports" is stale.
  const expected = new Set(entries.map((entry) => `${entry.reportName}.api.md`));
  for (const file of readdirSync(API_REPORT_DIR)) {
    if (!file.endsWith('.api.md') || expected.has(file)) continue;
    if (update) rmSync(join(API_REPORT_DIR, file));
    else changed.push(`etc/api/${file} (its entry point is no longer in package.json "exports")`);
  }
  for (const problem of problems) console.error(`api: ${problem}`);
  if (update) {
    console.log(changed.length === 0 ? `api:update: ${entries.length} reports, unchanged` : `api:update: rewrote ${changed.join(', ')}; commit etc/api/`);
    return problems.length === 0;
  }
  if (changed.length > 0) {
    console.error(`api:check: the exported TypeScript API differs from the committed report: ${changed.join(', ')}.`);
    console.error('  Run `npm run api:update`, review the diff of etc/api/*.api.md and commit it with your change;');
    console.error('  a removed or changed export also needs a **Breaking** line in CHANGELOG.md (npm run contract:diff names it).');
    return false;
  }
  if (problems.length > 0) return false;
  writeFileSync(CHECKED, inputsKey());
  console.log(`api:check: ${entries.length} entry points match etc/api/`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const update = process.argv.includes('--update');
  process.exit((await runApiReport(update)) ? 0 : 1);
}
