// (a) Every entry point of the installed package, imported from an ES module; prints what each exports.
import * as root from 'compute-contract';
import * as validation from 'compute-contract/validation';
import * as mock from 'compute-contract/mock';
import * as conform from 'compute-contract/conform';
import * as proxy from 'compute-contract/proxy';
import * as docs from 'compute-contract/docs';
import * as pact from 'compute-contract/pact';
import manifest from 'compute-contract/package.json' with { type: 'json' };
import restV1Spec from 'compute-contract/generated/rest-v1/openapi.json' with { type: 'json' };

const kinds = (namespace, names) => Object.fromEntries(names.map((name) => [name, typeof namespace[name]]));
console.log(
  JSON.stringify({
    root: kinds(root, ['createQueueClient', 'createRestClient', 'createRestV2Client', 'createGraphqlClient', 'validateRequest', 'loadValidators', 'migrate', 'ApiError', 'startMock']),
    validation: kinds(validation, ['validateRequest', 'validate', 'schemas']),
    mock: kinds(mock, ['startMock', 'FAULT_NAMES']),
    conform: kinds(conform, ['runConformance', 'rules']),
    proxy: kinds(proxy, ['startProxy', 'checkTraffic']),
    docs: kinds(docs, ['buildSite', 'writeSite']),
    pact: kinds(pact, ['checkPactFile', 'createStateHandlers']),
    name: manifest.name,
    restV1Title: typeof restV1Spec.info?.title,
    queueIssues: root.validateRequest('queueV2', 'runJob', { body: { input: {}, policy: { ttl: 5 } } }),
  }),
);
