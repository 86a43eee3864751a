// What specs/queue-v2 `x-load-balancing-endpoints` states, read from the bundled spec (never re-typed).
import { readFileSync } from 'node:fs';
import { packageFile } from '../../contract/package-files.js';

export interface LoadBalancingFacts {
  jobOperations: { status: number; message: string };
  directAccess: {
    address: string;
    health: { path: string; ready: number; initializing: number };
    noWorkerWaitMs: number;
    noWorkerStatus: number;
    processingTimeoutMs: number;
    processingTimeoutStatus: number;
    unreachableWorkerStatus: number;
    maxPayloadBytes: number;
    auth: { missingKeyStatus: number; otherAccountStatus: number };
    forwarding: { strippedHeaders: string[]; escapingPathStatus: number; payloadTooLargeStatus: number };
  };
}

function read(): LoadBalancingFacts {
  const doc = JSON.parse(readFileSync(packageFile('generated/queue-v2/openapi.json'), 'utf8')) as Record<string, unknown>;
  const facts = doc['x-load-balancing-endpoints'] as LoadBalancingFacts | undefined;
  if (!facts?.jobOperations || !facts.directAccess?.auth || !facts.directAccess.forwarding) throw new Error('queue-v2 spec lacks x-load-balancing-endpoints');
  // The spec folds the message with `>-`: one line, as an answer carries it.
  return { ...facts, jobOperations: { ...facts.jobOperations, message: facts.jobOperations.message.trim() } };
}

export const loadBalancingFacts: LoadBalancingFacts = read();
