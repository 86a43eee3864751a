// `compute-contract/mock`: the stateful reference mock (REST v1, REST v2, queue v2, GraphQL on one server).
// Loading it builds the GraphQL schema and reads the bundled specs; the package root never loads it.
export {
  startMock,
  FAULT_NAMES,
  DEFAULT_API_KEY,
  MAX_REQUEST_HEAD_BYTES,
  type MockOptions,
  type RunningMock,
  type FaultName,
  type ApiKey,
  type Clock,
  WorkerSetupError,
  type WorkerHandler,
  type WorkerJob,
  type WorkerContext,
  type StubRule,
  type WorkerDefinition,
  type FleetOptions,
} from '../mock/index.js';
