// (c) A small typed consumer, compiled with moduleResolution node16 and bundler (tsc --noEmit only).
import { ApiError, createQueueClient, createRestV2Client, migrate, validateRequest, type JobRecord, type ValidationIssue } from 'compute-contract';
import { startMock, type RunningMock } from 'compute-contract/mock';
import { runConformance } from 'compute-contract/conform';
import { checkTraffic } from 'compute-contract/proxy';
import { buildSite } from 'compute-contract/docs';
import { checkPactFile } from 'compute-contract/pact';
import { validate } from 'compute-contract/validation';

interface Input { prompt: string }
interface Output { imageUrl: string }

export async function useIt(mockUrl: string): Promise<string | undefined> {
  const queue = createQueueClient<Input, Output>({ endpointBaseUrl: mockUrl, endpointId: 'ep', apiKey: 'k' });
  const job: JobRecord<Output> = await queue.run({ input: { prompt: 'a cat' } });
  // @ts-expect-error the worker input is typed: steps is not part of Input
  await queue.run({ input: { steps: 3 } });
  const issues: ValidationIssue[] = validateRequest('queueV2', 'runJob', { body: { input: {} } });
  const v2 = createRestV2Client({ apiKey: 'k' });
  void v2;
  void migrate.createPod;
  void issues;
  void validate.queueV2;
  void [runConformance, checkTraffic, buildSite, checkPactFile];
  const running: RunningMock = await startMock({ port: 0 });
  await running.close();
  try {
    await queue.status(job.id);
  } catch (error) {
    if (error instanceof ApiError) return error.message;
  }
  return job.output?.imageUrl;
}
