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
  // GraphQL operations the official SDKs send (prefix gql; set up through GraphQL and REST v1)
  gqlPodNameFree: 'no pod is named pact-gql-pod',
  gqlRunningPod: 'a pod deployed through GraphQL is running',
  gqlStoppedPod: 'a pod deployed through GraphQL is stopped',
  gqlEndpointAndSecondTemplate: 'a serverless endpoint and a second serverless template exist',
  // REST v2 (set up through REST v2 itself, so a v2-only target can verify its pact; the GraphQL one needs --graphql-url)
  v2TemplateNameFree: 'no template is named pact-v2-template',
  v2TemplateExists: 'a pod template named pact-v2-template exists',
  v2TemplateFromGraphql: 'a pod template saved through GraphQL exists',
  v2PodNameFree: 'no pod is named pact-v2-pod',
  v2PodExists: 'a pod named pact-v2-pod was just created',
  v2ServerlessTemplateExists: 'a serverless template for REST v2 endpoints exists',
  v2EndpointExists: 'a serverless endpoint named pact-v2-endpoint exists',
  v2VolumeNameFree: 'no network volume is named pact-v2-volume',
  v2VolumeExists: 'a network volume named pact-v2-volume exists',
  v2RegistryNameFree: 'no registry credential is named pact-v2-registry',
  v2RegistryExists: 'a registry credential named pact-v2-registry exists',
  v2SecretNameFree: 'no account secret is named pact-v2-secret',
  v2SshKeyPresent: 'the account holds the pact SSH key',
  v2QuotaUsedUp: 'the REST v2 minute quota of the key is used up',
  v2SandboxNameFree: 'no live sandbox is named pact-v2-sandbox',
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
  [STATES.gqlPodNameFree]: [],
  [STATES.gqlRunningPod]: ['podId'],
  [STATES.gqlStoppedPod]: ['podId'],
  [STATES.gqlEndpointAndSecondTemplate]: ['endpointId', 'templateId'],
  [STATES.v2TemplateNameFree]: [],
  [STATES.v2TemplateExists]: ['templateId'],
  [STATES.v2TemplateFromGraphql]: ['templateId'],
  [STATES.v2PodNameFree]: [],
  [STATES.v2PodExists]: ['podId'],
  [STATES.v2ServerlessTemplateExists]: ['templateId'],
  [STATES.v2EndpointExists]: ['endpointId'],
  [STATES.v2VolumeNameFree]: [],
  [STATES.v2VolumeExists]: ['networkVolumeId'],
  [STATES.v2RegistryNameFree]: [],
  [STATES.v2RegistryExists]: ['registryId'],
  [STATES.v2SecretNameFree]: [],
  [STATES.v2SshKeyPresent]: [],
  [STATES.v2QuotaUsedUp]: [],
  [STATES.v2SandboxNameFree]: [],
};

/** Fixed names the interactions and handlers agree on. */
export const NAMES = {
  registryAuth: 'pact-registry',
  template: 'pact-template',
  endpoint: 'pact-endpoint',
  secret: 'pact-secret',
  gqlPod: 'pact-gql-pod',
  gqlEndpoint: 'pact-gql-endpoint',
  v2Template: 'pact-v2-template',
  v2ServerlessTemplate: 'pact-v2-serverless-template',
  v2Pod: 'pact-v2-pod',
  v2Endpoint: 'pact-v2-endpoint',
  v2Volume: 'pact-v2-volume',
  v2Registry: 'pact-v2-registry',
  v2Secret: 'pact-v2-secret',
  v2Sandbox: 'pact-v2-sandbox',
} as const;
