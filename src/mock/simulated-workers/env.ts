// The environment an endpoint's workers see: its template's env under the endpoint's own, secrets resolved.
import { resolveSecrets } from '../jobs/simulate.js';
import type { ResourceStore } from '../state/store.js';

export function workerEnvOf(store: ResourceStore, endpointId: string): Record<string, string> {
  return resolveSecrets(declaredWorkerEnv(store, endpointId), (name) => store.secretValue(name));
}

/** The same env as declared: `{{ RUNPOD_SECRET_… }}` references left as they are (attach mode's worker-env). */
export function declaredWorkerEnv(store: ResourceStore, endpointId: string): Record<string, string> {
  const endpoint = store.endpoints.peek(endpointId);
  const template = endpoint ? store.templates.peek(endpoint.templateId) : undefined;
  return { ...((template?.['env'] as Record<string, string> | undefined) ?? {}), ...((endpoint?.['env'] as Record<string, string> | undefined) ?? {}) };
}
