// Wire shape of a job record (JobRecord): only id and status always, the rest once known.
import type { Job } from '../types.js';

export interface JobRecordBody {
  id: string;
  status: string;
  delayTime?: number;
  executionTime?: number;
  output?: unknown;
  error?: string;
  retries?: number;
  workerId?: string;
}

export function renderJob(job: Job): JobRecordBody {
  const body: JobRecordBody = { id: job.id, status: job.status };
  if (job.delayTime !== undefined) body.delayTime = job.delayTime;
  if (job.executionTime !== undefined) body.executionTime = job.executionTime;
  if (job.output !== undefined) body.output = job.output;
  if (job.error !== undefined) body.error = job.error;
  if (job.retries > 0) body.retries = job.retries;
  if (job.workerId !== undefined) body.workerId = job.workerId;
  return body;
}
