/**
 * Queue v2 types with the worker's own Input / Output / Chunk types threaded through the generated ones.
 */
import type { components } from '../../generated/queue-v2/types.js';
import type { TerminalJobStatus } from './polling.js';

type Schemas = components['schemas'];

export type JobStatus = Schemas['JobStatus'];
export type JobPolicy = Schemas['JobPolicy'];
export type S3Config = Schemas['S3Config'];
export type HealthReport = Schemas['HealthReport'];
export type PurgeResult = Schemas['PurgeResult'];
export type RequestsList = Schemas['RequestsList'];

/** Default worker input: any JSON object. */
export type JsonObject = { [key: string]: unknown };

/** Body of `/run` and `/runsync`; every policy field is optional (the service applies the defaults). */
export type JobSubmission<Input = JsonObject> = Omit<Schemas['JobSubmission'], 'input' | 'policy'> & {
  input: Input;
  policy?: Partial<JobPolicy>;
};

/** A job record whose `output` is the worker's Output type. */
export type JobRecord<Output = unknown> = Omit<Schemas['JobRecord'], 'output'> & { output?: Output };

/** A record whose status can no longer change. */
export type TerminalJobRecord<Output = unknown> = JobRecord<Output> & { status: TerminalJobStatus };

export type StreamChunk<Chunk = unknown> = Omit<Schemas['StreamChunk'], 'output' | 'metrics'> & {
  output: Chunk;
  metrics?: JsonObject;
};

export type StreamResponse<Chunk = unknown> = Omit<Schemas['StreamResponse'], 'stream'> & { stream: StreamChunk<Chunk>[] };

/** Job-completion webhook body with the worker's Input / Output types. */
export type WebhookPayload<Input = JsonObject, Output = unknown> = Omit<Schemas['WebhookPayload'], 'input' | 'output'> & {
  input: Input;
  output?: Output;
};
