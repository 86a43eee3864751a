// A load-balancing endpoint has no job operations (seed: "Only queue-based endpoints have the job
// operations"): every queue v2 operation on one is refused as specs/queue-v2 `x-load-balancing-endpoints`
// states, before any rate window, so no job is created and nothing is counted.
import type { MockCore } from '../core.js';
import { loadBalancingFacts } from './facts.js';

export function isLoadBalancing(record: Record<string, unknown> | undefined): boolean {
  return record?.['endpointType'] === 'LOAD_BALANCER';
}

/** The refusal of a job operation on `endpointId`, or undefined when the endpoint is queue-based (or the fault is on). */
export function jobOperationRefusal(core: MockCore, endpointId: string): { status: number; message: string } | undefined {
  if (core.options.faults.has('lb-job-operations-accepted')) return undefined;
  if (!isLoadBalancing(core.store.endpoints.get(endpointId) as Record<string, unknown> | undefined)) return undefined;
  const { status, message } = loadBalancingFacts.jobOperations;
  return { status, message: message.replaceAll('{endpointId}', endpointId) };
}
