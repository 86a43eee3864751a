// REST v2 billing derived from what exists on the mock clock, in time buckets, agreeing with REST v1's
// figures for the same resource over its life. RESTV2-BILLING-*.
import { afterEach, describe, expect, it } from 'vitest';
import { V2Harness } from './rest-v2-resource-harness.js';

let t: V2Harness | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
const start = async () => (t = await V2Harness.start());
const HOUR = 3_600_000;
const sum = (records: { totalAmount: number }[]) => records.reduce((s, r) => s + r.totalAmount, 0);

describe('RESTV2-BILLING-001 the REST v1 figures, placed in time', () => {
  it('a pod that ran 36 h, stopped 12 h and ran 6 h more: v2 totals equal v1, each day holds its own hours', async () => {
    const h = await start();
    // Start on an hour boundary so every running hour is one whole hourly bucket.
    const clock = await h.h.control('GET', '/clock');
    await h.advance(HOUR - (clock.body.now % HOUR));
    const pod = await h.rest('POST', '/pods', { name: 'p', imageName: 'x:1', gpuTypeIds: ['NVIDIA GeForce RTX 4090'], gpuCount: 2 });
    await h.advance(36 * HOUR);
    await h.rest('POST', `/pods/${pod.body.id}/stop`);
    await h.advance(12 * HOUR);
    await h.rest('POST', `/pods/${pod.body.id}/start`);
    await h.advance(6 * HOUR);
    const v1 = await h.rest('GET', `/billing/pods?grouping=podId&podId=${pod.body.id}`);
    const v2 = await h.v2('GET', '/billing/pods?lastN=5&bucketSize=day');
    expect(v2.body.metadata.totals.totalAmount).toBe(v1.body[0].amount);
    expect(v2.body.metadata.totals.totalAmount).toBe(Math.round(42 * 1.38 * 10_000) / 10_000);
    expect(v2.body.metadata.uniquePodCount).toBe(1);
    const hourly = await h.v2('GET', `/billing/pods?lastN=60&bucketSize=hour&podId=${pod.body.id}`);
    const billedHours = hourly.body.records.filter((r: { gpuAmount: number }) => r.gpuAmount > 0);
    expect(billedHours).toHaveLength(42);
    expect(billedHours.every((r: { gpuAmount: number; cpuAmount: number }) => r.gpuAmount === 1.38 && r.cpuAmount === 0)).toBe(true);
    expect(hourly.body.records.every((r: { podId: string }) => r.podId === pod.body.id)).toBe(true);
    expect(hourly.body.metadata.query).toMatchObject({ bucketSize: 'hour', podId: pod.body.id });
  });

  it('network volumes by tier and serverless worker time agree with REST v1', async () => {
    const h = await start();
    const standard = await h.v2('POST', '/network-volumes', { name: 's', size: 100, dataCenter: 'EU-RO-1' });
    const fast = await h.v2('POST', '/network-volumes', { name: 'f', size: 50, dataCenter: 'US-TX-4' });
    const ep = await h.endpoint();
    await h.h.run(ep.id, { mock: { durationMs: 2_000 } });
    await h.h.run(ep.id, { mock: { durationMs: 3_000 } });
    await h.advance(10 * 24 * HOUR);
    const volumes = await h.v2('GET', '/billing/network-volumes?lastN=11');
    const v1Volumes = await h.rest('GET', '/billing/networkvolumes');
    expect(volumes.body.metadata.totals.totalAmount).toBe(v1Volumes.body[0].amount);
    expect(volumes.body.metadata.totals.highPerformanceAmount).toBeGreaterThan(0);
    expect(volumes.body.metadata.uniqueNetworkVolumeCount).toBe(2);
    const byId = await h.v2('GET', `/billing/network-volumes?lastN=11&networkVolumeId=${standard.body.id}`);
    expect(byId.body.records.every((r: { networkVolumeId: string; highPerformanceAmount: number }) => r.networkVolumeId === standard.body.id && r.highPerformanceAmount === 0)).toBe(true);
    expect(fast.body.type).toBe('HIGH_PERFORMANCE');
    const serverless = await h.v2('GET', `/billing/serverless?lastN=11&serverlessId=${ep.id}`);
    const v1Endpoints = await h.rest('GET', `/billing/endpoints?endpointId=${ep.id}`);
    expect(serverless.body.metadata.totals).toMatchObject({ totalAmount: v1Endpoints.body[0].amount, gpuAmount: v1Endpoints.body[0].amount, feeAmount: 0 });
    expect(v1Endpoints.body[0].amount).toBeCloseTo(5 * 0.00031, 3);
    expect(serverless.body.metadata.uniqueServerlessCount).toBe(1);
  });

  it('listBilling sums every component per bucket; public endpoint and cluster billing are empty of cost', async () => {
    const h = await start();
    await h.rest('POST', '/pods', { name: 'p', imageName: 'x:1', computeType: 'CPU' });
    await h.v2('POST', '/network-volumes', { name: 's', size: 10, dataCenter: 'EU-RO-1' });
    await h.advance(3 * HOUR);
    const all = await h.v2('GET', '/billing?lastN=2&bucketSize=day');
    expect(all.body.records).toHaveLength(2);
    const totals = all.body.metadata.totals;
    expect(totals.podCpuAmount).toBeCloseTo(3 * 0.08, 6);
    expect(totals.totalAmount).toBeCloseTo(totals.podCpuAmount + totals.storageStandardAmount, 4);
    // Each record is rounded to 4 decimals on its own and the totals from the unrounded amounts, so the records'
    // sum may differ from the total by half a unit of the 4th decimal per record (when the 3 h span a midnight).
    expect(Math.abs(sum(all.body.records) - totals.totalAmount)).toBeLessThanOrEqual(all.body.records.length * 0.00005 + 1e-9);
    const publicEndpoints = await h.v2('GET', '/billing/endpoints?lastN=3');
    expect(publicEndpoints.body.records.map((r: { totalAmount: number }) => r.totalAmount)).toEqual([0, 0, 0]);
    const clusters = await h.v2('GET', '/billing/clusters?lastN=3');
    expect(clusters.body).toMatchObject({ records: [], metadata: { recordCount: 0, uniqueClusterCount: 0, query: { clusterId: null } } });
  });
});

describe('RESTV2-BILLING-004 per-resource lists and their filters', () => {
  it('a cluster is billed its member pods\' GPU time (and they are not billed as pods); filters keep one resource', async () => {
    const h = await start();
    const cluster = await h.v2('POST', '/clusters', { name: 'train', type: 'SLURM', image: 'trainer:1', compute: { gpuTypeId: 'NVIDIA H100 80GB HBM3', gpuCountPerPod: 2, podCount: 2 } });
    expect(cluster.status).toBe(201);
    const pod = await h.rest('POST', '/pods', { name: 'solo', imageName: 'x:1', gpuTypeIds: ['NVIDIA GeForce RTX 4090'] });
    await h.advance(2 * HOUR);
    const clusters = await h.v2('GET', '/billing/clusters?lastN=2');
    expect(clusters.body.metadata.uniqueClusterCount).toBe(1);
    // Two pods of two GPUs for 2 h at REST v1's 0.69 per GPU-hour.
    expect(clusters.body.metadata.totals.gpuAmount).toBeCloseTo(2 * 2 * 2 * 0.69, 4);
    const pods = await h.v2('GET', '/billing/pods?lastN=2');
    expect(pods.body.records.map((r: { podId: string }) => r.podId)).toEqual(expect.arrayContaining([pod.body.id]));
    expect(pods.body.metadata.uniquePodCount).toBe(1);
    const one = await h.v2('GET', `/billing/clusters?lastN=2&clusterId=${cluster.body.id}`);
    expect(one.body.records.every((r: { clusterId: string }) => r.clusterId === cluster.body.id)).toBe(true);
    expect((await h.v2('GET', '/billing/clusters?lastN=2&clusterId=none')).body.records).toEqual([]);
  });

  it('more than 10000 records → 400 naming the filter; the filter makes the same window answerable', async () => {
    const h = await start();
    const a = await h.v2('POST', '/network-volumes', { name: 'a', size: 10, dataCenter: 'EU-RO-1' });
    await h.v2('POST', '/network-volumes', { name: 'b', size: 10, dataCenter: 'EU-RO-1' });
    await h.advance(5_001 * HOUR);
    const both = await h.v2('GET', '/billing/network-volumes?lastN=8784&bucketSize=hour');
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual([expect.stringContaining('/query/networkVolumeId')]);
    const one = await h.v2('GET', `/billing/network-volumes?lastN=8784&bucketSize=hour&networkVolumeId=${a.body.id}`);
    expect(one.body.metadata.recordCount).toBeGreaterThan(5_000);
  });
});

describe('RESTV2-BILLING-002 the window: startTime/endTime or lastN, aligned to buckets, bounded', () => {
  it('aligns startTime back and endTime forward to bucket edges; defaults to the last 30 days up to the current bucket', async () => {
    const h = await start();
    const aligned = await h.v2('GET', '/billing?startTime=2026-03-04T05:06:07Z&endTime=2026-03-06T01:00:00Z&bucketSize=day');
    expect(aligned.body.metadata.query).toEqual({ startTime: '2026-03-04T00:00:00Z', endTime: '2026-03-07T00:00:00Z', bucketSize: 'day' });
    expect(aligned.body.records.map((r: { startTime: string }) => r.startTime)).toEqual(['2026-03-04T00:00:00Z', '2026-03-05T00:00:00Z', '2026-03-06T00:00:00Z']);
    const boundary = await h.v2('GET', '/billing?startTime=2026-03-01T00:00:00Z&endTime=2026-05-01T00:00:00Z&bucketSize=month');
    expect(boundary.body.records).toHaveLength(2);
    const week = await h.v2('GET', '/billing?startTime=2026-03-04T00:00:00Z&endTime=2026-03-05T00:00:00Z&bucketSize=week');
    expect(week.body.metadata.query.startTime).toBe('2026-03-01T00:00:00Z');
    expect((await h.v2('GET', '/billing')).body.records).toHaveLength(31);
  });

  it('lastN with startTime → 400; start not before end → 400; more than 8784 buckets → 400', async () => {
    const h = await start();
    expect((await h.v2('GET', '/billing/pods?lastN=3&startTime=2026-03-01T00:00:00Z')).status).toBe(400);
    expect((await h.v2('GET', '/billing?startTime=2026-03-05T00:00:00Z&endTime=2026-03-01T00:00:00Z')).status).toBe(400);
    const tooMany = await h.v2('GET', '/billing?startTime=2020-01-01T00:00:00Z&endTime=2026-01-01T00:00:00Z&bucketSize=hour');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([expect.stringContaining('/query/bucketSize')]);
    expect((await h.v2('GET', '/billing?lastN=8784&bucketSize=hour')).body.records).toHaveLength(8784);
  });
});
