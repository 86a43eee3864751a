// Migrating from REST v1 to REST v2 against the reference mock, end to end:
//   1. create resources with the REST v1 client (what existing code does),
//   2. read and change the same resources with the REST v2 client (same ids: one state),
//   3. restart the mock with `retireRestV1` (the CLI's --retire-rest-v1) on the same state file and show
//      the 410 Gone the old code now gets — the message names the REST v2 replacement — while v2 still works.
// Run: npm run example:migrate
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, createRestClient, createRestV2Client, migrate } from '../../src/index.js';
import { startMock, type MockOptions } from '../../src/entries/mock.js';

const apiKey = 'example-key';
const dir = mkdtempSync(join(tmpdir(), 'cc-migrate-'));
const base: MockOptions = { host: '127.0.0.1', port: 0, stateFile: join(dir, 'state.json'), apiKeys: [{ key: apiKey, scopes: ['read', 'write', 'jobs', 'graphql'] }] };
const show = (label: string, value: unknown) => console.log(`${label}\n${JSON.stringify(value, null, 2).replace(/^/gm, '    ')}`);

async function main(): Promise<void> {
  let mock = await startMock(base);
  console.log(`mock: REST v1 ${mock.restV1Url} · REST v2 ${mock.restV2Url}\n`);
  try {
    // 1. The old code: REST v1.
    const v1 = createRestClient({ baseUrl: mock.restV1Url, apiKey });
    const v1Template = { name: 'inference-worker', imageName: 'example/worker:1.0', dockerStartCmd: ['python', '-u', 'handler.py'], containerDiskInGb: 20, volumeInGb: 0, isServerless: true };
    const template = await v1.templates.create(v1Template);
    const endpoint = await v1.endpoints.create({ name: 'inference', templateId: template.id, workersMin: 0, workersMax: 2, idleTimeout: 5 });
    console.log(`1. REST v1 created template ${template.id} and endpoint ${endpoint.id}`);
    show('   the same template body, converted by migrate.createTemplate():', migrate.createTemplate(v1Template));

    // 2. The new code: REST v2 reads and changes the same resources. baseUrl is the origin, as
    //    https://api.runpod.io is for the real service (paths carry /v2): the mock's root.
    const v2 = createRestV2Client({ baseUrl: mock.url, apiKey });
    show(`\n2. REST v2 getTemplate(${template.id}):`, await v2.templates.get(template.id));
    const updated = await v2.templates.update(template.id, { image: 'example/worker:1.1' });
    console.log(`   REST v2 updateTemplate → image ${updated.image}; REST v1 now reads imageName ${(await v1.templates.get(template.id)).imageName}`);
    const listed = await v2.serverless.list();
    console.log(`   REST v2 listEndpoints → ${listed.length} endpoint(s): ${listed.map((e) => `${e.id} (workers ${JSON.stringify(e.workers)})`).join(', ')}`);
    if (v2.rateLimit) console.log(`   REST v2 quota left this minute: ${v2.rateLimit.windows.find((w) => w.name === 'minute')?.remaining ?? '?'}`);
  } finally {
    await mock.close();
  }

  // 3. The day REST v1 is retired: same state, v1 answers 410 Gone naming its replacement.
  mock = await startMock({ ...base, retireRestV1: true });
  try {
    const v1 = createRestClient({ baseUrl: mock.restV1Url, apiKey, maxRetries: 0 });
    try {
      await v1.templates.list();
      throw new Error('REST v1 still answered after retirement');
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 410) throw error;
      console.log(`\n3. After retirement, the old code's listTemplates gets ${error.status}: ${(error.body as { message?: string }).message}`);
    }
    const v2 = createRestV2Client({ baseUrl: mock.url, apiKey });
    console.log(`   REST v2 still lists ${(await v2.templates.list()).map((t) => `${t.name} (${t.image})`).join(', ')}`);
  } finally {
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
