// Where the two contracts are read from: the one of the last release (contract/last-release/, committed,
// rewritten only by `npm run contract:snapshot` when a release is cut) and the one of the working tree
// (generated/*/openapi.json, specs/graphql/schema.graphql, specs/rules.yaml, etc/api/*.api.md).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WireSurface } from './change.js';
import type { OpenApiDocument } from './openapi-diff.js';
import { ruleFacts, type RuleFacts } from './rules-diff.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BASELINE_DIR = join(ROOT, 'contract', 'last-release');
export const WIRE_SURFACES: readonly WireSurface[] = ['rest-v1', 'rest-v2', 'queue-v2'];

export interface BaselineManifest {
  /** The release this is the contract of; null while no release has been cut. */
  release: string | null;
  /** The commit the snapshot was taken from, and when. */
  commit: string;
  takenAt: string;
  note: string;
}

export interface Contract {
  label: string;
  openapi: Record<WireSurface, OpenApiDocument>;
  graphql: string;
  rules: RuleFacts[];
  /** API Extractor reports by file name (compute-contract-mock.api.md …). */
  api: Record<string, string>;
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

function reports(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const file of readdirSync(dir).sort()) if (file.endsWith('.api.md')) out[file] = readFileSync(join(dir, file), 'utf8');
  return out;
}

export function readManifest(dir = BASELINE_DIR): BaselineManifest {
  return readJson(join(dir, 'manifest.json')) as BaselineManifest;
}

export function baselineLabel(manifest: BaselineManifest): string {
  return manifest.release ? `release ${manifest.release}` : `baseline ${manifest.commit.slice(0, 8)} (${manifest.takenAt.slice(0, 10)}, no release cut yet)`;
}

export function readBaseline(dir = BASELINE_DIR): Contract {
  if (!existsSync(join(dir, 'manifest.json'))) throw new Error(`${dir} holds no contract snapshot (manifest.json); run \`npm run contract:snapshot\``);
  const openapi = Object.fromEntries(WIRE_SURFACES.map((surface) => [surface, readJson(join(dir, `${surface}.openapi.json`))])) as Record<WireSurface, OpenApiDocument>;
  return {
    label: baselineLabel(readManifest(dir)),
    openapi,
    graphql: readFileSync(join(dir, 'schema.graphql'), 'utf8'),
    rules: readJson(join(dir, 'rules.json')) as RuleFacts[],
    api: reports(join(dir, 'api')),
  };
}

export function readWorkingTree(root = ROOT): Contract {
  const openapi = Object.fromEntries(WIRE_SURFACES.map((surface) => [surface, readJson(join(root, 'generated', surface, 'openapi.json'))])) as Record<WireSurface, OpenApiDocument>;
  return {
    label: 'working tree',
    openapi,
    graphql: readFileSync(join(root, 'specs', 'graphql', 'schema.graphql'), 'utf8'),
    rules: ruleFacts(readFileSync(join(root, 'specs', 'rules.yaml'), 'utf8')),
    api: reports(join(root, 'etc', 'api')),
  };
}
