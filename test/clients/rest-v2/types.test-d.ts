/**
 * Type tests of the REST v2 client, compiled by `tsc --noEmit` (tsconfig includes `test/`; never executed).
 * Each `@ts-expect-error` must stay an error: if a type loosens, tsc reports the unused directive.
 */
import { createRestV2Client, type LogLine, type RestV2Result, type RestV2Schemas } from '../../../src/clients/rest-v2/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(_: T): void {}

type Pod = RestV2Schemas['Pod'];

export async function restV2Types() {
  const v2 = createRestV2Client({ apiKey: 'k' });

  // Lists resolve the unwrapped array.
  const pods = await v2.pods.list({ includeClusterPods: true });
  assertType<Equal<typeof pods, Pod[]>>(true);
  const gpus = await v2.catalog.gpus();
  assertType<Equal<typeof gpus, RestV2Schemas['GpuType'][]>>(true);
  const clusterPods = await v2.clusters.pods('c1');
  assertType<Equal<typeof clusterPods, Pod[]>>(true);
  // @ts-expect-error listPods has no such query parameter
  await v2.pods.list({ computeType: 'GPU' });

  // Single resources and 204s.
  const pod = await v2.pods.get('p1');
  assertType<Equal<typeof pod, Pod>>(true);
  const deleted = await v2.pods.delete('p1');
  assertType<Equal<typeof deleted, undefined>>(true);
  const acted = await v2.pods.action('p1', 'stop');
  assertType<Equal<typeof acted, Pod | undefined>>(true);
  // @ts-expect-error not a pod action
  await v2.pods.action('p1', 'explode');

  // Whole answers where a list has siblings.
  const workers = await v2.serverless.workers('e1');
  assertType<Equal<typeof workers, RestV2Schemas['ListEndpointWorkersResponse']>>(true);
  const billing = await v2.billing.pods({ bucketSize: 'day' });
  void billing.metadata.totals;

  // Bodies are checked.
  await v2.registries.create({ name: 'r', username: 'u', password: 'p' });
  // @ts-expect-error password is required
  await v2.registries.create({ name: 'r', username: 'u' });
  await v2.account.sshKeys.update({ keys: ['ssh-ed25519 AAAA me'] });
  // @ts-expect-error keys is a string array
  await v2.account.sshKeys.update({ keys: 'ssh-ed25519 AAAA me' });

  // request() by operationId: path/query/body typed per operation; SSE operations go through stream().
  const byId = await v2.request('getCluster', { path: { id: 'c1' } });
  assertType<Equal<typeof byId, RestV2Result<'getCluster'>>>(true);
  // @ts-expect-error getCluster needs its path id
  await v2.request('getCluster', {});
  // @ts-expect-error the log stream is not a JSON operation
  await v2.request('getPodLogs', { path: { id: 'p1' } });
  // @ts-expect-error unknown operation
  await v2.request('listEverything', {});

  for await (const line of v2.pods.logs('p1', { tail: 10, signal: AbortSignal.timeout(1000) })) {
    assertType<Equal<typeof line, LogLine>>(true);
  }
  // @ts-expect-error source is container | system
  v2.serverless.workerLogs('e1', 'w1', { source: 'kernel' });
  // @ts-expect-error stream() only takes the SSE operations
  v2.stream('getPod', { path: { id: 'p1' } });

  // Rate limits and the raw layer.
  const remaining: number | undefined = v2.rateLimit?.windows[0]?.remaining;
  void remaining;
  // @ts-expect-error rateLimit is read-only
  v2.rateLimit = undefined;
  const { data } = await v2.raw.GET('/v2/pods/{id}', { params: { path: { id: 'p1' } } });
  const rawPod: Pod | undefined = data;
  void rawPod;
  // @ts-expect-error raw paths carry /v2
  await v2.raw.GET('/pods/{id}', { params: { path: { id: 'p1' } } });

  // @ts-expect-error apiKey is required
  createRestV2Client({});
}
