// Publishes pacts/ to a Pact Broker: `npm run pact:publish`. Needs PACT_BROKER_BASE_URL (+
// PACT_BROKER_TOKEN, or PACT_BROKER_USERNAME/PASSWORD); the version is PACT_VERSION or the git
// commit, the branch PACT_BRANCH or git's. Then gate releases with can-i-deploy (docs/pact.md, "can-i-deploy").
import { readFileSync } from 'node:fs';
import { brokerFromEnv, buildPublishRequest, versionFromEnv } from '../src/pact/broker.js';
import { PACT_SURFACES, pactFilePath } from '../src/pact/participants.js';

async function main(): Promise<number> {
  const broker = brokerFromEnv(process.env);
  if (!broker) {
    console.error('pact:publish: PACT_BROKER_BASE_URL is not set; the pacts stay in pacts/ (nothing published)');
    return 2;
  }
  const version = versionFromEnv(process.env);
  const pacts = PACT_SURFACES.map((surface) => ({ surface, content: readFileSync(pactFilePath(surface), 'utf8') }));
  const request = buildPublishRequest(broker, version, pacts);
  const response = await fetch(request.url, request.init);
  const text = await response.text();
  const notices = (() => {
    try {
      return ((JSON.parse(text) as { notices?: { text?: string }[] }).notices ?? []).map((n) => n.text ?? '');
    } catch {
      return [text.slice(0, 500)];
    }
  })();
  for (const notice of notices) console.log(notice);
  if (!response.ok) {
    console.error(`pact:publish: broker answered ${response.status}`);
    return 1;
  }
  console.log(`published ${pacts.length} pacts as version ${version.version}${version.branch ? ` (branch ${version.branch})` : ''}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`pact:publish: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
