// The package root, for callers: typed clients, errors, request/response validation, migration converters.
// It loads no mock, conformance runner, docs builder, YAML or Markdown parser, fast-check or GraphQL schema;
// those are the subpaths (compute-contract/mock, /conform, /proxy, /docs, /pact). Validators load per surface
// on first use (src/validation/on-demand.ts); `compute-contract/validation` has every surface's tables at once.
export * from './validation/on-demand.js';
export { operations, rateLimitPolicy, type RestV2OperationId } from '../generated/operations.js';
export * from './clients/index.js';
export * from './clients/rest-v2/index.js';
export { migrate, migrationMap, MigrationError, type Migrate, type MigrationMap } from './migration/index.js';
