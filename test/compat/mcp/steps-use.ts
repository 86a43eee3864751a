// Wire steps, part 2: read what part 1 created, update it, act on it (jobs, logs, builds, pod actions,
// billing), then delete it all — each answer judged against the mock's state.
import { expect } from 'vitest';
import { ok, refused, type Step } from './steps-setup.js';
import type { McpWire } from './harness.js';

const store = (w: McpWire) => w.mock.core.store;
const listed = (items: { id: string }[], id: string) => items.some((x) => x.id === id);

const READS: Step[] = [
  { tool: 'list-registries', what: 'registries', run: async (w, ids) => expect(listed((await ok(w, 'list-registries')).registries, ids['registry']!)).toBe(true) },
  { tool: 'get-registry', what: 'one registry', run: async (w, ids) => expect((await ok(w, 'get-registry', { id: ids['registry'] })).name).toBe('mcp-registry') },
  { tool: 'list-templates', what: 'templates', run: async (w, ids) => expect(listed((await ok(w, 'list-templates')).templates, ids['template']!)).toBe(true) },
  { tool: 'get-template', what: 'one template', run: async (w, ids) => expect((await ok(w, 'get-template', { id: ids['template'] })).image).toBe('mcp/worker:1') },
  { tool: 'list-network-volumes', what: 'volumes', run: async (w, ids) => expect(listed((await ok(w, 'list-network-volumes')).networkVolumes, ids['volume']!)).toBe(true) },
  { tool: 'get-network-volume', what: 'one volume', run: async (w, ids) => expect((await ok(w, 'get-network-volume', { id: ids['volume'] })).size).toBe(10) },
  { tool: 'list-endpoints', what: 'endpoints, incl. the Hub deploy', run: async (w, ids) => {
    const items = (await ok(w, 'list-endpoints', { limit: 100 })).items;
    expect(listed(items, ids['endpoint']!) && listed(items, ids['hubEndpoint']!)).toBe(true);
    expect(items).toHaveLength(store(w).endpoints.size);
  } },
  { tool: 'get-endpoint', what: 'one endpoint', run: async (w, ids) => expect((await ok(w, 'get-endpoint', { id: ids['endpoint'] })).workers.min).toBe(1) },
  { tool: 'list-pods', what: 'pods', run: async (w, ids) => expect(listed((await ok(w, 'list-pods')).pods, ids['pod']!)).toBe(true) },
  { tool: 'get-pod', what: 'one pod', run: async (w, ids) => expect((await ok(w, 'get-pod', { id: ids['pod'] })).name).toBe('mcp-pod') },
  { tool: 'list-clusters', what: 'clusters', run: async (w, ids) => expect(listed((await ok(w, 'list-clusters')).clusters, ids['cluster']!)).toBe(true) },
  { tool: 'get-cluster', what: 'one cluster', run: async (w, ids) => expect((await ok(w, 'get-cluster', { id: ids['cluster'] })).name).toBe('mcp-cluster') },
  { tool: 'list-cluster-pods', what: 'a cluster\'s pods', run: async (w, ids) => expect((await ok(w, 'list-cluster-pods', { id: ids['cluster'] })).pods).toHaveLength(2) },
  { tool: 'list-delegations', what: 'ECR delegations', run: async (w, ids) => expect(listed((await ok(w, 'list-delegations')).delegations, ids['delegation']!)).toBe(true) },
  { tool: 'list-endpoint-workers', what: 'the kept worker', run: async (w, ids) => {
    const workers = await w.until('a worker of the endpoint', async () => {
      const body = await ok(w, 'list-endpoint-workers', { id: ids['endpoint'] });
      return body.workers.length > 0 ? body.workers : undefined;
    });
    expect(workers.map((x: { id: string }) => x.id)).toEqual(w.mock.core.engine.workersOf(ids['endpoint']!).map((x) => x.id));
    ids['worker'] = workers[0].id;
  } },
  { tool: 'endpoint-health', what: 'queue v2 health', run: async (w, ids) => expect((await ok(w, 'endpoint-health', { endpointId: ids['endpoint'] })).workers.idle).toBeGreaterThan(0) },
];

const UPDATES: Step[] = [
  { tool: 'update-template', what: 'a renamed template', run: async (w, ids) => {
    await ok(w, 'update-template', { id: ids['template'], body: { name: 'mcp-template-2' } });
    expect(store(w).templates.get(ids['template']!)?.name).toBe('mcp-template-2');
  } },
  { tool: 'update-network-volume', what: 'a grown volume', run: async (w, ids) => {
    await ok(w, 'update-network-volume', { id: ids['volume'], body: { size: 20 } });
    expect(store(w).networkVolumes.get(ids['volume']!)?.size).toBe(20);
  } },
  { tool: 'update-endpoint', what: 'more workers at most', run: async (w, ids) => {
    await ok(w, 'update-endpoint', { id: ids['endpoint'], body: { workers: { max: 3 } } });
    expect(store(w).endpoints.get(ids['endpoint']!)?.['workersMax']).toBe(3);
  } },
  { tool: 'set-endpoint-gpus', what: 'a pool minus one GPU type', run: async (w, ids) => {
    const body = await ok(w, 'set-endpoint-gpus', { endpointId: ids['endpoint'], pools: ['AMPERE_16'], excludeGpuTypeIds: ['NVIDIA RTX A4000'] });
    expect(body.endpoint.gpuIds).toBe('AMPERE_16,-NVIDIA RTX A4000');
    expect(store(w).endpoints.get(ids['endpoint']!)?.['gpuTypeIds']).not.toContain('NVIDIA RTX A4000');
  } },
  { tool: 'update-pod', what: 'a renamed pod', run: async (w, ids) => {
    await ok(w, 'update-pod', { id: ids['pod'], body: { name: 'mcp-pod-2' } });
    expect(store(w).pods.get(ids['pod']!)?.name).toBe('mcp-pod-2');
  } },
  { tool: 'update-cluster', what: 'a renamed cluster', run: async (w, ids) => {
    await ok(w, 'update-cluster', { id: ids['cluster'], body: { name: 'mcp-cluster-2' } });
    expect(store(w).clusters.get(ids['cluster']!)?.['name']).toBe('mcp-cluster-2');
  } },
];

const job = (w: McpWire, endpointId: string, id: string) => w.mock.core.engine.get(endpointId, id);
const ACTS: Step[] = [
  { tool: 'run-endpoint', what: 'a job submitted', run: async (w, ids) => {
    const body = await ok(w, 'run-endpoint', { endpointId: ids['endpoint'], input: { mock: { durationMs: 2_000, output: { answer: 42 } } } });
    expect(job(w, ids['endpoint']!, body.id)).toBeDefined();
    ids['job'] = body.id;
  } },
  { tool: 'get-job-status', what: 'the job\'s status as queue v2 has it', run: async (w, ids) => {
    const body = await w.until('the job to complete', async () => {
      const status = await ok(w, 'get-job-status', { endpointId: ids['endpoint'], jobId: ids['job'] });
      return status.status === 'COMPLETED' ? status : undefined;
    });
    expect(body.output).toEqual({ answer: 42 });
  } },
  { tool: 'stream-job', what: 'a streamed job to its end', run: async (w, ids) => {
    const submitted = await ok(w, 'run-endpoint', { endpointId: ids['endpoint'], input: { mock: { durationMs: 3_000, stream: ['a', 'b', 'c'] } } });
    const body = await ok(w, 'stream-job', { endpointId: ids['endpoint'], jobId: submitted.id });
    expect(body.status).toBe('COMPLETED');
    expect(body.stream.map((c: { output: unknown }) => c.output)).toEqual(['a', 'b', 'c']);
  } },
  { tool: 'runsync-endpoint', what: 'a job run to its end in one call', run: async (w, ids) => {
    const body = await ok(w, 'runsync-endpoint', { endpointId: ids['endpoint'], input: { mock: { durationMs: 1_000, output: 'sync' } }, wait: 60_000 });
    expect([body.status, body.output]).toEqual(['COMPLETED', 'sync']);
    // An agent's Public Endpoint call: the endpointId list-public-endpoints gives, run with the account's key.
    const [whisper] = (await ok(w, 'list-public-endpoints', { modality: 'audio' })).items;
    const heard = await ok(w, 'runsync-endpoint', { endpointId: whisper.endpointId, input: { audio: 'https://example.invalid/talk.mp3' }, wait: 60_000 });
    expect([heard.status, heard.output.transcription]).toEqual(['COMPLETED', 'Mock transcription of https://example.invalid/talk.mp3.']);
  } },
  { tool: 'cancel-job', what: 'a long job cancelled', run: async (w, ids) => {
    const submitted = await ok(w, 'run-endpoint', { endpointId: ids['endpoint'], input: { mock: { durationMs: 3_600_000 } } });
    await ok(w, 'cancel-job', { endpointId: ids['endpoint'], jobId: submitted.id });
    expect(job(w, ids['endpoint']!, submitted.id)?.status).toBe('CANCELLED');
  } },
  { tool: 'retry-job', what: 'a failed job retried under its id', run: async (w, ids) => {
    const submitted = await ok(w, 'run-endpoint', { endpointId: ids['endpoint'], input: { mock: { durationMs: 500, error: 'boom', failTimes: 1 } } });
    await w.until('the job to fail', () => (job(w, ids['endpoint']!, submitted.id)?.status === 'FAILED' ? true : undefined));
    expect((await ok(w, 'retry-job', { endpointId: ids['endpoint'], jobId: submitted.id })).id).toBe(submitted.id);
    await w.until('the retried job to complete', () => (job(w, ids['endpoint']!, submitted.id)?.status === 'COMPLETED' ? true : undefined));
  } },
  { tool: 'purge-endpoint-queue', what: 'the queue purged', run: async (w, ids) => {
    // The Hub endpoint has never had a worker: with none allowed, a job stays queued.
    await ok(w, 'update-endpoint', { id: ids['hubEndpoint'], body: { workers: { min: 0, max: 0 } } });
    await ok(w, 'run-endpoint', { endpointId: ids['hubEndpoint'], input: {} });
    expect(w.mock.core.engine.health(ids['hubEndpoint']!).jobs.inQueue).toBe(1);
    expect((await ok(w, 'purge-endpoint-queue', { endpointId: ids['hubEndpoint'] })).removed).toBe(1);
    expect(w.mock.core.engine.health(ids['hubEndpoint']!).jobs.inQueue).toBe(0);
  } },
  { tool: 'stream-worker-logs', what: 'a worker\'s log lines', run: async (w, ids) => {
    // Workers were replaced by the releases since: read a current one.
    const workerId = await w.until('a current worker', async () => (await ok(w, 'list-endpoint-workers', { id: ids['endpoint'] })).workers[0]?.id as string | undefined);
    const body = await ok(w, 'stream-worker-logs', { endpointId: ids['endpoint'], workerId, tail: 20, maxWaitMs: 500 });
    expect(body.count).toBeGreaterThan(0);
    expect(body.items.every((i: { source: string }) => i.source === 'system' || i.source === 'container')).toBe(true);
  } },
  { tool: 'stream-pod-logs', what: 'a pod\'s log lines', run: async (w, ids) => {
    expect((await ok(w, 'stream-pod-logs', { podId: ids['pod'], maxWaitMs: 500 })).count).toBeGreaterThan(0);
  } },
  { tool: 'pod-action', what: 'a pod stopped', run: async (w, ids) => {
    await ok(w, 'pod-action', { id: ids['pod'], body: { action: 'stop' } });
    expect(store(w).pods.get(ids['pod']!)?.desiredStatus).toBe('EXITED');
  } },
  { tool: 'list-endpoint-builds', what: 'builds of simulated pushes, newest first', run: async (w, ids) => {
    const first = await w.push(ids['endpoint']!, { commitMessage: 'first' });
    await w.push(ids['endpoint']!, { commitMessage: 'second', outcome: 'FAILED' });
    await w.until('both builds to end', () => (w.mock.core.builds.list(ids['endpoint']!).every((b) => b.completedAt !== null) ? true : undefined));
    const body = await ok(w, 'list-endpoint-builds', { id: ids['endpoint'] });
    expect(body.builds.map((b: { commitMessage: string; status: string }) => [b.commitMessage, b.status])).toEqual([['second', 'FAILED'], ['first', 'COMPLETED']]);
    ids['build'] = first.id;
  } },
  { tool: 'get-endpoint-build', what: 'one build; another endpoint\'s build refused', run: async (w, ids) => {
    expect((await ok(w, 'get-endpoint-build', { id: ids['endpoint'], buildId: ids['build'] })).status).toBe('COMPLETED');
    await refused(w, 'get-endpoint-build', { id: ids['hubEndpoint'], buildId: ids['build'] }, /no build/);
  } },
  { tool: 'list-endpoint-releases', what: 'the completed build\'s release (GIT_BUILD)', run: async (w, ids) => {
    const body = await ok(w, 'list-endpoint-releases', { id: ids['endpoint'] });
    const fromBuild = body.releases.find((r: { source: string }) => r.source === 'GIT_BUILD');
    expect(fromBuild.buildId).toBe(ids['build']);
    expect(body.endpointVersion).toBe(body.releases[0].version);
  } },
  ...(['list-billing', 'list-pod-billing', 'list-serverless-billing', 'list-endpoint-billing', 'list-network-volume-billing', 'list-cluster-billing'] as const).map((tool): Step => ({
    tool, what: 'billing records of what ran on the mock clock', run: async (w) => {
      const body = await ok(w, tool);
      expect(Array.isArray(body.records)).toBe(true);
    },
  })),
];

const gone = (map: { has(id: string): boolean }, id: string) => expect(map.has(id)).toBe(false);
const DELETES: Step[] = [
  { tool: 'delete-pod', what: 'the pod', run: async (w, ids) => (await ok(w, 'delete-pod', { id: ids['pod'] }), gone(store(w).pods, ids['pod']!)) },
  { tool: 'delete-cluster', what: 'the cluster', run: async (w, ids) => (await ok(w, 'delete-cluster', { id: ids['cluster'] }), gone(store(w).clusters, ids['cluster']!)) },
  { tool: 'delete-endpoint', what: 'both endpoints', run: async (w, ids) => {
    for (const id of [ids['endpoint']!, ids['hubEndpoint']!]) (await ok(w, 'delete-endpoint', { id }), gone(store(w).endpoints, id));
  } },
  { tool: 'delete-template', what: 'the template', run: async (w, ids) => (await ok(w, 'delete-template', { id: ids['template'] }), gone(store(w).templates, ids['template']!)) },
  { tool: 'delete-network-volume', what: 'the volume', run: async (w, ids) => (await ok(w, 'delete-network-volume', { id: ids['volume'] }), gone(store(w).networkVolumes, ids['volume']!)) },
  { tool: 'delete-registry', what: 'the registry credential', run: async (w, ids) => (await ok(w, 'delete-registry', { id: ids['registry'] }), gone(store(w).registryAuths, ids['registry']!)) },
  { tool: 'revoke-delegation', what: 'the ECR delegation', run: async (w, ids) => (await ok(w, 'revoke-delegation', { id: ids['delegation'] }), gone(store(w).ecrDelegations, ids['delegation']!)) },
];

export const USE_STEPS: Step[] = [...READS, ...UPDATES, ...ACTS, ...DELETES];
