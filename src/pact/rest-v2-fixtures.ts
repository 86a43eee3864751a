// What the compute-rest-v2 interactions send and their provider states create: one definition, so the
// consumer tests and the state handlers cannot drift apart. Names are fixed (see NAMES); ids are not.
import { NAMES } from './state-names.js';

const IMAGE = 'pact/worker:1.0';

/** The pod template the states create and the creation interaction sends. */
export const V2_TEMPLATE = { name: NAMES.v2Template, image: IMAGE, disk: 10, ports: ['8888/http'], env: { PACT: '1' } } as const;

/** A template saved through GraphQL (not REST v2): REST v2 must show it under the same id, renamed fields and all. */
export const GRAPHQL_TEMPLATE = { name: 'pact-graphql-template', imageName: IMAGE, containerDiskInGb: 12, volumeInGb: 0, isServerless: false } as const;

/** The serverless template endpoints are created from (reused by name on targets without a control API). */
export const V2_SERVERLESS_TEMPLATE = { name: NAMES.v2ServerlessTemplate, image: IMAGE, serverless: true } as const;

/** A GPU the catalog lists with a serverless pool; pods and the catalog read use it. */
export const V2_GPU = { id: 'NVIDIA GeForce RTX 4090', pool: 'ADA_24' } as const;

export const v2PodInput = () => ({ name: NAMES.v2Pod, image: IMAGE, gpu: { id: V2_GPU.id }, disk: 10, ports: ['8888/http'], env: { PACT: '1' } });

export const v2EndpointInput = (templateId: string) => ({
  name: NAMES.v2Endpoint,
  type: 'QUEUE' as const,
  templateId,
  scaling: { type: 'QUEUE_DELAY' as const, queueDelay: 4 },
  gpu: { pools: [V2_GPU.pool] },
  workers: { min: 0, max: 1 },
});

export const V2_VOLUME = { name: NAMES.v2Volume, size: 10, dataCenter: 'EU-RO-1' } as const;

/** Registry credentials: placeholders, written to the pact on purpose (a password that is not a secret). */
export const V2_REGISTRY = { name: NAMES.v2Registry, username: 'pact-user', password: 'pact-password' } as const;

/** An account secret: a placeholder value, written to the pact on purpose (it is not a secret). */
export const V2_SECRET = { name: NAMES.v2Secret, value: 'pact-secret-value', description: 'made by the pact' } as const;

/** An SSH public key made up for the pacts (not a real key pair). */
export const PACT_SSH_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPactPactPactPactPactPactPactPactPactPactPact pact@compute-contract';

/** The sandbox the creation interaction asks for (terminated by the state's teardown: sandboxes bill per second). */
export const V2_SANDBOX = { name: NAMES.v2Sandbox, imageName: 'python:3.12-slim', idleTimeoutSeconds: 300, labels: { pact: 'v2' } } as const;
