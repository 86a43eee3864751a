// Public entry point of compute-contract.
export * from './validation/index.js';
export { rules, type RuleId, type Rule } from '../generated/rules.js';
export { operations, rateLimitPolicy, type OperationInfo, type RestV2OperationId } from '../generated/operations.js';
export * from './clients/index.js';
export * from './clients/rest-v2/index.js';
export { startMock, FAULT_NAMES, type MockOptions, type RunningMock, type FaultName } from './mock/index.js';
export { migrate, migrationMap, MigrationError, type Migrate, type MigrationMap } from './migration/index.js';
