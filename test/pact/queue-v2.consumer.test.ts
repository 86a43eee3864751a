// Pact consumer tests of the queue v2 client: every operation, plus 401, 400 (ttl below minimum),
// 404 (unknown job) and 429 (Retry-After). The client runs against the Pact mock server; matchers
// pin only what the client reads.
import { MatchersV3 } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  RateLimitError,
} from '../../src/clients/index.js';
import { PACT_WRONG_API_KEY } from '../../src/pact/participants.js';
import { STATES } from '../../src/pact/state-names.js';
import {
  EXAMPLE_JOB_ID,
  EXAMPLE_SYNC_JOB_ID,
  NOT_TERMINAL,
  bearer,
  errorBody,
  jobId,
  pactFor,
  queueClient,
  queuePath,
  rfc3339,
  statusOneOf,
} from '../../contract-tests/pact/consumer.js';
import { createPactWorkspace } from '../../contract-tests/pact/pact-files.js';

const { like, eachLike, integer, regex } = MatchersV3;

const workspace = createPactWorkspace('queueV2');
const pact = pactFor('queueV2', workspace.dir);
const jobPath = (operation: string) => queuePath(`/${operation}/\${jobId}`, `/${operation}/${EXAMPLE_JOB_ID}`);

afterAll(() => {
  expect(workspace.finish(), 'pacts/ differs from the fresh pact: run `npm test` locally and commit pacts/').not.toBe('stale');
});

describe('queue v2 client ↔ compute-queue-v2', () => {
  it('QUEUE run: submits a job and reads its id and status', async () => {
    await pact
      .addInteraction()
      .given(STATES.endpointAcceptsJobs)
      .uponReceiving('a job submission')
      .withRequest('POST', queuePath('/run'), (b) => b.headers(bearer()).jsonBody({ input: { prompt: 'a cat' } }))
      .willRespondWith(200, (b) => b.jsonBody({ id: jobId(), status: statusOneOf(NOT_TERMINAL) }))
      .executeTest(async (mock) => {
        const job = await queueClient(mock.url).run({ input: { prompt: 'a cat' } });
        expect(job).toEqual({ id: EXAMPLE_JOB_ID, status: 'IN_QUEUE' });
      });
  });

  it('QUEUE runsync: waits for the result (sync- job id)', async () => {
    await pact
      .addInteraction()
      .given(STATES.endpointAcceptsJobs)
      .uponReceiving('a synchronous job submission')
      .withRequest('POST', queuePath('/runsync'), (b) =>
        b.headers(bearer()).query({ wait: '60000' }).jsonBody({ input: { prompt: 'a dog' } }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({ id: jobId(EXAMPLE_SYNC_JOB_ID), status: 'COMPLETED', output: like({ echo: { prompt: 'a dog' } }) }),
      )
      .executeTest(async (mock) => {
        const job = await queueClient(mock.url).runSync({ input: { prompt: 'a dog' } }, { waitMs: 60_000 });
        expect(job.status).toBe('COMPLETED');
        expect(job.id.startsWith('sync-')).toBe(true);
        expect(job.output?.echo?.prompt).toBe('a dog');
      });
  });

  it('QUEUE status: reads a completed job', async () => {
    await pact
      .addInteraction()
      .given(STATES.completedJob)
      .uponReceiving('a status read of a completed job')
      .withRequest('GET', jobPath('status'), (b) => b.headers(bearer()))
      .willRespondWith(200, (b) =>
        b.jsonBody({ id: jobId(), status: 'COMPLETED', output: like({ echo: { prompt: 'a cat' } }) }),
      )
      .executeTest(async (mock) => {
        const job = await queueClient(mock.url).status(EXAMPLE_JOB_ID);
        expect(job.status).toBe('COMPLETED');
        expect(job.output).toEqual({ echo: { prompt: 'a cat' } });
      });
  });

  it('QUEUE status-sync: holds until the job is terminal', async () => {
    await pact
      .addInteraction()
      .given(STATES.completedJob)
      .uponReceiving('a held status read of a completed job')
      .withRequest('GET', jobPath('status-sync'), (b) => b.headers(bearer()).query({ wait: '5000' }))
      .willRespondWith(200, (b) => b.jsonBody({ id: jobId(), status: 'COMPLETED', output: like({ echo: { prompt: 'a cat' } }) }))
      .executeTest(async (mock) => {
        const job = await queueClient(mock.url).statusSync(EXAMPLE_JOB_ID, { waitMs: 5000 });
        expect(job.status).toBe('COMPLETED');
      });
  });

  it('QUEUE stream: reads the chunks of a finished generator job', async () => {
    await pact
      .addInteraction()
      .given(STATES.completedStreamingJob)
      .uponReceiving('a stream read of a completed streaming job')
      .withRequest('GET', jobPath('stream'), (b) => b.headers(bearer()))
      .willRespondWith(200, (b) => b.jsonBody({ id: jobId(), status: 'COMPLETED', stream: eachLike({ output: like('Hel') }) }))
      .executeTest(async (mock) => {
        const read = await queueClient(mock.url).readStream(EXAMPLE_JOB_ID);
        expect(read.status).toBe('COMPLETED');
        expect(read.stream.map((chunk) => chunk.output)).toEqual(['Hel']);
      });
  });

  it('QUEUE cancel: cancels a running job', async () => {
    await pact
      .addInteraction()
      .given(STATES.runningJob)
      .uponReceiving('a cancellation of a running job')
      .withRequest('POST', jobPath('cancel'), (b) => b.headers(bearer()))
      .willRespondWith(200, (b) => b.jsonBody({ id: jobId(), status: 'CANCELLED' }))
      .executeTest(async (mock) => {
        const job = await queueClient(mock.url).cancel(EXAMPLE_JOB_ID);
        expect(job.status).toBe('CANCELLED');
      });
  });

  it('QUEUE retry: requeues a failed job under the same id', async () => {
    await pact
      .addInteraction()
      .given(STATES.failedJob)
      .uponReceiving('a retry of a failed job')
      .withRequest('POST', jobPath('retry'), (b) => b.headers(bearer()))
      .willRespondWith(200, (b) => b.jsonBody({ id: jobId(), status: statusOneOf(NOT_TERMINAL) }))
      .executeTest(async (mock) => {
        const job = await queueClient(mock.url).retry(EXAMPLE_JOB_ID);
        expect(job).toEqual({ id: EXAMPLE_JOB_ID, status: 'IN_QUEUE' });
      });
  });

  it('QUEUE purge-queue: removes queued jobs', async () => {
    await pact
      .addInteraction()
      .given(STATES.endpointAcceptsJobs)
      .uponReceiving('a queue purge')
      .withRequest('POST', queuePath('/purge-queue'), (b) => b.headers(bearer()))
      .willRespondWith(200, (b) => b.jsonBody({ removed: integer(0), status: 'completed' }))
      .executeTest(async (mock) => {
        const result = await queueClient(mock.url).purgeQueue();
        expect(result).toEqual({ removed: 0, status: 'completed' });
      });
  });

  it('QUEUE health: reads job and worker counters', async () => {
    const counters = { completed: integer(1), failed: integer(0), inProgress: integer(0), inQueue: integer(0), retried: integer(0) };
    await pact
      .addInteraction()
      .given(STATES.endpointAcceptsJobs)
      .uponReceiving('a health read')
      .withRequest('GET', queuePath('/health'), (b) => b.headers(bearer()))
      .willRespondWith(200, (b) => b.jsonBody({ jobs: counters, workers: { idle: integer(1), running: integer(0) } }))
      .executeTest(async (mock) => {
        const health = await queueClient(mock.url).health();
        expect(health.jobs.completed).toBe(1);
        expect(health.workers.idle).toBe(1);
      });
  });

  it('QUEUE requests: lists the jobs in flight', async () => {
    await pact
      .addInteraction()
      .given(STATES.runningJob)
      .uponReceiving('a read of the jobs in flight')
      .withRequest('GET', queuePath('/requests'), (b) => b.headers(bearer()))
      .willRespondWith(200, (b) =>
        b.jsonBody({ requests: eachLike({ id: jobId(), status: statusOneOf(NOT_TERMINAL, 'IN_PROGRESS'), submittedAt: rfc3339() }) }),
      )
      .executeTest(async (mock) => {
        const list = await queueClient(mock.url).requests();
        expect(list.requests[0]).toMatchObject({ id: EXAMPLE_JOB_ID, status: 'IN_PROGRESS' });
      });
  });

  it('QUEUE openai: passes an OpenAI-compatible request to the worker', async () => {
    const body = { model: 'mock-model', messages: [{ role: 'user', content: 'hi' }] };
    await pact
      .addInteraction()
      .given(STATES.endpointAcceptsJobs)
      .uponReceiving('an OpenAI chat completion through the endpoint')
      .withRequest('POST', queuePath('/openai/v1/chat/completions'), (b) => b.headers(bearer()).jsonBody(body))
      .willRespondWith(200, (b) => b.jsonBody({ choices: eachLike({ message: { content: like('echo: hi') } }) }))
      .executeTest(async (mock) => {
        const result = await queueClient(mock.url).openai<{ choices: { message: { content: string } }[] }>('v1/chat/completions', body);
        expect(result.choices[0]?.message.content).toBe('echo: hi');
      });
  });

  it('QUEUE openai GET: lists the models the workers serve', async () => {
    await pact
      .addInteraction()
      .given(STATES.endpointAcceptsJobs)
      .uponReceiving('an OpenAI model list through the endpoint')
      .withRequest('GET', queuePath('/openai/v1/models'), (b) => b.headers(bearer()))
      .willRespondWith(200, (b) => b.jsonBody({ object: 'list', data: eachLike({ id: like('mock-model'), object: 'model' }) }))
      .executeTest(async (mock) => {
        const result = await queueClient(mock.url).openaiGet<{ data: { id: string }[] }>('v1/models');
        expect(result.data[0]?.id).toBe('mock-model');
      });
  });

  // Errors.
  it('QUEUE-AUTH 401: a wrong key → AuthenticationError', async () => {
    await pact
      .addInteraction()
      .given(STATES.endpointAcceptsJobs)
      .uponReceiving('a job submission with a wrong API key')
      .withRequest('POST', queuePath('/run'), (b) => b.headers(bearer(PACT_WRONG_API_KEY)).jsonBody({ input: { prompt: 'a cat' } }))
      .willRespondWith(401, (b) => b.jsonBody(errorBody('Unauthorized')))
      .executeTest(async (mock) => {
        const error = await queueClient(mock.url, { apiKey: PACT_WRONG_API_KEY }).run({ input: { prompt: 'a cat' } }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(AuthenticationError);
      });
  });

  it('QUEUE-TTL-002 ttl below 10 s → 400 (client-side validation off)', async () => {
    const submission = { input: { prompt: 'a cat' }, policy: { ttl: 5000 } };
    await pact
      .addInteraction()
      .given(STATES.endpointAcceptsJobs)
      .uponReceiving('a job submission with a ttl below the minimum')
      .withRequest('POST', queuePath('/run'), (b) => b.headers(bearer()).jsonBody(submission))
      .willRespondWith(400, (b) => b.jsonBody({ message: like('Invalid request'), errors: eachLike({ path: '/body/policy/ttl', message: like('must be >= 10000') }) }))
      .executeTest(async (mock) => {
        const error = await queueClient(mock.url, { validateRequests: false }).run(submission).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(BadRequestError);
        expect((error as BadRequestError).issues.map((issue) => issue.path)).toEqual(['/body/policy/ttl']);
      });
  });

  it('QUEUE 404: an unknown job id → NotFoundError', async () => {
    const unknown = 'pact-unknown-job-u1';
    await pact
      .addInteraction()
      .given(STATES.endpointAcceptsJobs)
      .uponReceiving('a status read of an unknown job')
      .withRequest('GET', queuePath(`/status/${unknown}`), (b) => b.headers(bearer()))
      .willRespondWith(404, (b) => b.jsonBody(errorBody('job not found')))
      .executeTest(async (mock) => {
        const error = await queueClient(mock.url).status(unknown).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NotFoundError);
        expect((error as NotFoundError).jobId).toBe(unknown);
      });
  });

  it('QUEUE 429: over the rate limit → RateLimitError with Retry-After', async () => {
    await pact
      .addInteraction()
      .given(STATES.purgeLimitUsedUp)
      .uponReceiving('a queue purge over the rate limit')
      .withRequest('POST', queuePath('/purge-queue'), (b) => b.headers(bearer()))
      .willRespondWith(429, (b) => b.headers({ 'Retry-After': regex('^[0-9]+$', '10') }).jsonBody(errorBody('Too many requests')))
      .executeTest(async (mock) => {
        const error = await queueClient(mock.url).purgeQueue().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RateLimitError);
        expect((error as RateLimitError).retryAfterMs).toBe(10_000);
      });
  });
});
