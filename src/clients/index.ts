// Public surface of the typed clients (re-exported from the package root).
export * from './errors.js';
export { REDACTED, SecretRedactor } from './redact.js';
export {
  createRetryFetch,
  backoffDelayMs,
  defaultSleep,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type FetchLike,
  type RetryFetchOptions,
  type RetryInfo,
  type RetrySettings,
  type Sleep,
} from './retry-fetch.js';
export type { BaseClientOptions, CallOptions, TransportOptions } from './http.js';
export type { ContractValidator, RequestParts } from '../validation/surface-loader.js';
export {
  TERMINAL_JOB_STATUSES,
  isTerminalStatus,
  pollUntilTerminal,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_MAX_POLL_INTERVAL_MS,
  type PollOptions,
  type TerminalJobStatus,
} from './polling.js';
export { iterateJobStream } from './stream.js';
export type * from './queue-types.js';
export {
  createQueueClient,
  clampWaitMs,
  MIN_WAIT_MS,
  MAX_WAIT_MS,
  QUEUE_OPERATIONS,
  type QueueClient,
  type QueueClientOptions,
  type RunSyncOptions,
  type WaitForOptions,
} from './queue-client.js';
export {
  createRestClient,
  restOperationSpec,
  type RestArgs,
  type RestClient,
  type RestClientOptions,
  type RestOperationId,
  type RestResult,
  type RestSchemas,
} from './rest-client.js';
export {
  createGraphqlClient,
  type GraphqlClient,
  type GraphqlClientOptions,
  type PodTemplate,
  type Secret,
  type SaveTemplateInput,
  type SecretCreateInput,
} from './graphql-client.js';
export type {
  DeployCpuPodInput, EndpointInput, GraphqlAccount, GraphqlAccountSettings, GraphqlEndpoint, GraphqlGpuType, GraphqlPod,
  GraphqlRegistryAuth, PodFindAndDeployOnDemandInput, SaveRegistryAuthInput, UpdateRegistryAuthInput,
} from './graphql-management.js';
export { validateGraphqlVariables, type VariablesValidator } from './graphql-variables.js';
export {
  createWebhookHandler,
  type WebhookDelivery,
  type WebhookHandler,
  type WebhookHandlerOptions,
  type WebhookRequest,
  type WebhookResult,
} from './webhook.js';
