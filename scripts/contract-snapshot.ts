// npm run contract:snapshot -- --release X.Y.Z  — when a release is cut: copy the contract of the working
// tree (bundled OpenAPI documents without prose, the GraphQL SDL, the rule catalogue's judged facts, the API
// reports) into contract/last-release/, the baseline `npm run contract:diff` and the gate judge against.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withoutProse } from './contract/openapi-diff.js';
import { BASELINE_DIR, readWorkingTree, ROOT, WIRE_SURFACES, type BaselineManifest } from './contract/sources.js';

const args = process.argv.slice(2);
const at = args.indexOf('--release');
const release = at === -1 ? null : args[at + 1];
if ((at !== -1 && (!release || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(release))) || args.length !== (at === -1 ? 0 : 2)) {
  console.error('usage: npm run contract:snapshot -- --release X.Y.Z   (the version being released)');
  process.exit(2);
}
const contract = readWorkingTree();
if (Object.keys(contract.api).length === 0) {
  console.error('contract:snapshot: etc/api/ holds no API report; run `npm run api:update` first');
  process.exit(1);
}
rmSync(BASELINE_DIR, { recursive: true, force: true });
mkdirSync(join(BASELINE_DIR, 'api'), { recursive: true });
for (const surface of WIRE_SURFACES) writeFileSync(join(BASELINE_DIR, `${surface}.openapi.json`), `${JSON.stringify(withoutProse(contract.openapi[surface]), null, 1)}\n`);
writeFileSync(join(BASELINE_DIR, 'schema.graphql'), contract.graphql);
writeFileSync(join(BASELINE_DIR, 'rules.json'), `${JSON.stringify(contract.rules, null, 1)}\n`);
for (const file of readdirSync(join(ROOT, 'etc', 'api'))) if (file.endsWith('.api.md')) cpSync(join(ROOT, 'etc', 'api', file), join(BASELINE_DIR, 'api', file));
const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
const manifest: BaselineManifest = {
  release: release ?? null,
  commit,
  takenAt: new Date().toISOString(),
  note: release
    ? `The contract of release ${release}.`
    : 'No release has been cut: package.json 0.1.0 was never tagged or published and CHANGELOG.md has no released section. This is the contract at the commit above (when the gate was introduced); changes before it are the hand-written lines of the unreleased section. Replace it with `npm run contract:snapshot -- --release X.Y.Z` when a release is cut.',
};
writeFileSync(join(BASELINE_DIR, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`contract:snapshot: wrote ${BASELINE_DIR} (${release ? `release ${release}` : `commit ${commit.slice(0, 8)}`}); commit it`);
