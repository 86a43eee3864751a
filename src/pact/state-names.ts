// Named provider states: the consumer tests say `given(STATE)`, the verifier maps each name to a
// handler (src/pact/state-handlers.ts). Values a handler returns (ids) are injected into the
// interaction through `fromProviderState('${name}')`.
export const STATES = {
  // queue v2 — every handler returns `endpointId` (the target's queue endpoint).
  endpointAcceptsJobs: 'an endpoint accepts jobs',
  completedJob: 'a completed job exists',
  completedStreamingJob: 'a streaming job has completed',
  runningJob: 'a long-running job is in progress',
  failedJob: 'a failed job exists',
  purgeLimitUsedUp: 'the purge-queue rate limit of the endpoint is used up',
  // REST v1
  registryAuthExists: 'a container registry auth exists',
  registryAuthNameFree: 'no container registry auth is named pact-registry',
  templateExists: 'a serverless template exists',
  endpointExists: 'a serverless endpoint exists',
  // GraphQL
  templateNameFree: 'no template is named pact-template',
  namedTemplateExists: 'an unused template named pact-template exists',
  secretNameFree: 'no secret is named pact-secret',
  secretExists: 'a secret exists',
} as const;

export type StateName = (typeof STATES)[keyof typeof STATES];

/** Values the handlers return, by state (the names used in `${…}` expressions). */
export const STATE_VALUES: Record<StateName, readonly string[]> = {
  [STATES.endpointAcceptsJobs]: ['endpointId'],
  [STATES.completedJob]: ['endpointId', 'jobId'],
  [STATES.completedStreamingJob]: ['endpointId', 'jobId'],
  [STATES.runningJob]: ['endpointId', 'jobId'],
  [STATES.failedJob]: ['endpointId', 'jobId'],
  [STATES.purgeLimitUsedUp]: ['endpointId'],
  [STATES.registryAuthExists]: ['containerRegistryAuthId'],
  [STATES.registryAuthNameFree]: [],
  [STATES.templateExists]: ['templateId'],
  [STATES.endpointExists]: ['endpointId'],
  [STATES.templateNameFree]: [],
  [STATES.namedTemplateExists]: [],
  [STATES.secretNameFree]: [],
  [STATES.secretExists]: ['secretId'],
};

/** Fixed names the interactions and handlers agree on. */
export const NAMES = {
  registryAuth: 'pact-registry',
  template: 'pact-template',
  endpoint: 'pact-endpoint',
  secret: 'pact-secret',
} as const;
