// Pact consumer tests of the REST v2 client (createRestV2Client, provider compute-rest-v2): at least
// one interaction per resource family, plus the errors every REST v2 caller handles. The interactions
// live in test/pact/rest-v2/ by family; this file owns the one pact they all write into.
import { afterAll, expect } from 'vitest';
import { pactFor } from '../../contract-tests/pact/consumer.js';
import { createPactWorkspace } from '../../contract-tests/pact/pact-files.js';
import { accountInteractions } from './rest-v2/account.js';
import { errorInteractions } from './rest-v2/errors.js';
import { podInteractions } from './rest-v2/pods.js';
import { sandboxInteractions } from './rest-v2/sandboxes.js';
import { serverlessInteractions } from './rest-v2/serverless.js';
import { storageInteractions } from './rest-v2/storage.js';
import { templateInteractions } from './rest-v2/templates.js';

const workspace = createPactWorkspace('restV2');
const pact = pactFor('restV2', workspace.dir);

afterAll(() => {
  expect(workspace.finish(), 'pacts/ differs from the fresh pact: run `npm test` locally and commit pacts/').not.toBe('stale');
});

templateInteractions(pact);
podInteractions(pact);
serverlessInteractions(pact);
storageInteractions(pact);
accountInteractions(pact);
sandboxInteractions(pact);
errorInteractions(pact);
