// `compute-contract/pact`: Pact helpers without pact-js: the pact ↔ spec comparator, the participants and
// committed pact files (pacts/), provider states over the public API, and Pact Broker request building.
// Running pact-js's Verifier is the repository's `npm run pact:verify` (pact-js is not a dependency).
export {
  checkPact,
  checkPactFile,
  checkInteraction,
  formatReports,
  findOperation,
  type SpecIssue,
  type InteractionReport,
  type PactDocument,
} from '../pact/spec-check.js';
export { checkGraphqlExchange, type GraphqlExchange } from '../pact/graphql-check.js';
export {
  CONSUMER,
  PROVIDERS,
  PACT_SURFACES,
  PACT_DIR,
  PACT_API_KEY,
  pactFileName,
  pactFilePath,
  providerBaseUrl,
  surfaceOfProvider,
  type PactSurface,
  type ProviderName,
} from '../pact/participants.js';
export { STATES, NAMES, type StateName } from '../pact/state-names.js';
export { createStateHandlers, NO_STATE, type PactStateHandler } from '../pact/state-handlers.js';
export { ProviderWorld } from '../pact/provider-world.js';
export {
  brokerFromEnv,
  brokerHeaders,
  versionFromEnv,
  buildPublishRequest,
  brokerVerifierOptions,
  type BrokerSettings,
  type VersionInfo,
  type PublishRequest,
  type BrokerVerifierOptions,
} from '../pact/broker.js';
