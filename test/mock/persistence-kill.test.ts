// Acknowledged means kept: a `mock --state` child is driven by concurrent writers on every surface
// (REST v1, REST v2, GraphQL, queue v2) and killed with SIGKILL at random moments. After each restart
// every acknowledged change is there, and nothing unacknowledged is half-applied.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleChild, call, removeBundle, prepareChild, type ChildMock, type ChildOptions, type PreparedChild } from './state-child.js';

const TRIALS = 20;
const COMPACTING_TRIALS = 6;
/** The kill comes a random [0, SPREAD) ms after every writer had one answer in the trial (or after WAIT_MAX). */
const KILL_SPREAD_MS = 150;
const WAIT_MAX_MS = 3_000;
/** Jobs of earlier trials re-checked after each restart (all of the current trial are). */
const JOB_SAMPLE = 15;

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mock-kill-'));
  await bundleChild();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  removeBundle();
});

/** What the writers were told (acknowledged) and what they only sent. */
class Ledger {
  /** REST v1 and GraphQL templates by name: id once acknowledged. */
  readonly templates = new Map<string, string>();
  /** Per template id: highest update sent, highest acknowledged. */
  readonly updates = new Map<string, { sent: number; acked: number }>();
  readonly volumes = new Map<string, 'created' | 'delete-sent' | 'deleted'>();
  readonly jobs: { id: string; trial: number }[] = [];
  /** Jobs a status answer showed COMPLETED. */
  readonly completed = new Set<string>();
  /** Writers (by name) that had an answer in the current trial. */
  private readonly answered = new Set<string>();
  private everyWriterAnswered: (() => void) | undefined;

  /** Starts a trial: resolves once `writers` writers had an answer in it (an event, not a poll). */
  startTrial(writers: number): Promise<void> {
    this.answered.clear();
    return new Promise((resolve) => {
      this.everyWriterAnswered = () => {
        if (this.answered.size >= writers) resolve();
      };
    });
  }

  answer(writer: string): void {
    this.answered.add(writer);
    this.everyWriterAnswered?.();
  }
}

type Writer = (mock: ChildMock, ledger: Ledger, running: () => boolean, trial: number, tag: string) => Promise<void>;

const restV1Templates: Writer = async (mock, ledger, running, trial, tag) => {
  for (let n = 0; running(); n++) {
    const name = `v1-${tag}-${trial}-${n}`;
    const created = await call('POST', `${mock.restV1}/templates`, { name, imageName: `img:${name}` });
    expect(created.status).toBe(200);
    ledger.templates.set(name, created.body.id);
    ledger.updates.set(created.body.id, { sent: 0, acked: 0 });
    ledger.answer(`v1-${tag}`);
    // Two fields in one update: after a crash both carry the same counter, or the update is not there at all.
    const counter = ledger.updates.get(created.body.id)!;
    for (let k = 1; k <= 2 && running(); k++) {
      counter.sent = k;
      const updated = await call('POST', `${mock.restV1}/templates/${created.body.id}/update`, { readme: `update ${k}`, volumeMountPath: `/mnt/u${k}` });
      expect(updated.status).toBe(200);
      counter.acked = k;
    }
  }
};

const restV2Volumes: Writer = async (mock, ledger, running, trial, tag) => {
  for (let n = 0; running(); n++) {
    const created = await call('POST', `${mock.restV2}/network-volumes`, { name: `v2-${tag}-${trial}-${n}`, size: 10, dataCenter: 'EU-RO-1' });
    expect(created.status).toBe(201);
    ledger.volumes.set(created.body.id, 'created');
    ledger.answer(`v2-${tag}`);
    if (n % 3 === 2) {
      ledger.volumes.set(created.body.id, 'delete-sent');
      const deleted = await call('DELETE', `${mock.restV2}/network-volumes/${created.body.id}`);
      expect(deleted.status).toBe(204);
      ledger.volumes.set(created.body.id, 'deleted');
    }
  }
};

const graphqlTemplates: Writer = async (mock, ledger, running, trial, tag) => {
  for (let n = 0; running(); n++) {
    const name = `gql-${tag}-${trial}-${n}`;
    const query = `mutation { saveTemplate(input: {name: "${name}", imageName: "img:${name}", containerDiskInGb: 5, volumeInGb: 0}) { id name } }`;
    const answer = await call('POST', mock.graphql, { query });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    ledger.templates.set(name, answer.body.data.saveTemplate.id);
    ledger.answer(`gql-${tag}`);
  }
};

const queueJobs = (endpointId: string): Writer => async (mock, ledger, running, trial, tag) => {
  while (running()) {
    const run = await call('POST', `${mock.queue(endpointId)}/run`, { input: { mock: { durationMs: Math.floor(Math.random() * 20) } } });
    expect(run.status).toBe(200);
    ledger.jobs.push({ id: run.body.id, trial });
    ledger.answer(`queue-${tag}`);
    const earlier = ledger.jobs[Math.floor(Math.random() * ledger.jobs.length)]!;
    const status = await call('GET', `${mock.queue(endpointId)}/status/${earlier.id}`);
    expect(status.status).toBe(200);
    if (status.body.status === 'COMPLETED') ledger.completed.add(earlier.id);
  }
};

async function verify(mock: ChildMock, ledger: Ledger, endpointId: string, trial: number): Promise<void> {
  const where = `after kill ${trial + 1}`;
  const templates = (await call('GET', `${mock.restV1}/templates`)).body as { id: string; name: string; imageName: string; readme?: string; volumeMountPath?: string }[];
  const byName = new Map(templates.map((t) => [t.name, t]));
  for (const [name, id] of ledger.templates) expect(byName.get(name)?.id, `${where}: acknowledged template ${name}`).toBe(id);
  for (const t of templates) {
    if (t.name === 'kill-base') continue;
    // Created whole or not at all (an unacknowledged create may be there, complete).
    expect(t.imageName, `${where}: template ${t.name}`).toBe(`img:${t.name}`);
    const counter = ledger.updates.get(t.id);
    const k = t.readme?.startsWith('update ') ? Number(t.readme.slice(7)) : 0;
    if (counter) {
      expect(k, `${where}: template ${t.name} keeps its last acknowledged update`).toBeGreaterThanOrEqual(counter.acked);
      expect(k).toBeLessThanOrEqual(counter.sent);
    }
    if (k > 0) expect(t.volumeMountPath, `${where}: both fields of update ${k} of ${t.name}`).toBe(`/mnt/u${k}`);
  }
  const volumes = (await call('GET', `${mock.restV1}/networkvolumes`)).body as { id: string; size: number; dataCenterId: string }[];
  const volumeIds = new Set(volumes.map((v) => v.id));
  for (const [id, state] of ledger.volumes) {
    if (state === 'created') expect(volumeIds.has(id), `${where}: acknowledged volume ${id}`).toBe(true);
    if (state === 'deleted') expect(volumeIds.has(id), `${where}: volume ${id} whose delete was acknowledged`).toBe(false);
  }
  for (const v of volumes) expect(v).toMatchObject({ size: 10, dataCenterId: 'EU-RO-1' });
  const current = ledger.jobs.filter((j) => j.trial === trial);
  const older = ledger.jobs.filter((j) => j.trial !== trial).sort(() => Math.random() - 0.5).slice(0, JOB_SAMPLE);
  for (const job of [...current, ...older]) {
    const status = await call('GET', `${mock.queue(endpointId)}/status/${job.id}`);
    expect(status.status, `${where}: acknowledged job ${job.id}`).toBe(200);
    if (ledger.completed.has(job.id)) expect(status.body.status, `${where}: job ${job.id} was seen COMPLETED`).toBe('COMPLETED');
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when `event` does, or after `ms` (the bound), whichever comes first. */
async function within(event: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([event, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Kills a writer-driven mock `trials` times at random moments; after each restart checks the ledger. */
async function killTrials(file: string, trials: number, options: ChildOptions): Promise<{ ledger: Ledger; inodes: Set<number> }> {
  let mock = await prepareChild(file, options).start();
  // The next mocks load their modules while the current one serves (see state-child-entry.ts).
  const ready: PreparedChild[] = [prepareChild(file, options), prepareChild(file, options)];
  const ledger = new Ledger();
  /** The file's inode after each restart: a compaction replaces the file (rename). */
  const inodes = new Set([statSync(file).ino]);
  try {
    const base = await call('POST', `${mock.restV1}/templates`, { name: 'kill-base', imageName: 'worker:1' });
    const endpoint = await call('POST', `${mock.restV1}/endpoints`, { name: 'kill-ep', templateId: base.body.id, workersMin: 0, workersMax: 3 });
    expect(endpoint.status).toBe(200);
    const endpointId = endpoint.body.id as string;
    const writers: [Writer, string][] = [
      [restV1Templates, 'a'], [restV1Templates, 'b'], [restV2Volumes, 'a'], [restV2Volumes, 'b'],
      [graphqlTemplates, 'a'], [graphqlTemplates, 'b'], [queueJobs(endpointId), 'a'], [queueJobs(endpointId), 'b'],
    ];
    for (let trial = 0; trial < trials; trial++) {
      let live = true;
      const running = () => live;
      const victim = mock;
      const everyWriterAnswered = ledger.startTrial(writers.length);
      // A writer's request that the kill cuts off rejects: it was never acknowledged.
      const traffic = writers.map(([write, tag]) => write(victim, ledger, running, trial, tag).catch((error: unknown) => {
        if (live || (error as Error).name === 'AssertionError') throw error;
      }));
      const inodeBefore = statSync(file).ino;
      await within(everyWriterAnswered, WAIT_MAX_MS);
      // Compacting runs: a compaction (in the background) completes in the trial before the kill, which
      // then lands among the next ones — bounded, so a slow machine only loses that guarantee.
      if (options.compactBytes !== undefined) {
        for (const started = Date.now(); statSync(file).ino === inodeBefore && Date.now() - started < WAIT_MAX_MS;) await sleep(5);
      }
      await sleep(Math.random() * KILL_SPREAD_MS);
      victim.proc.kill('SIGKILL');
      live = false;
      await victim.exited;
      await Promise.all(traffic);
      mock = await ready.shift()!.start();
      // Two ahead while later trials need them, none loaded only to be discarded (a load is most of a child's CPU).
      if (trial + ready.length + 1 < trials) ready.push(prepareChild(file, options));
      await verify(mock, ledger, endpointId, trial);
      inodes.add(statSync(file).ino);
    }
    // Every trial had traffic on every surface before its kill.
    expect(ledger.templates.size).toBeGreaterThanOrEqual(4 * trials);
    expect(ledger.jobs.length).toBeGreaterThanOrEqual(2 * trials);
    expect(ledger.volumes.size).toBeGreaterThanOrEqual(2 * trials);
    return { ledger, inodes };
  } finally {
    await mock.kill();
    await Promise.all(ready.map((child) => child.discard()));
  }
}

describe('--state under SIGKILL', () => {
  it(`keeps every acknowledged change across ${TRIALS} kills at random moments`, async () => {
    await killTrials(join(dir, 'state.db'), TRIALS, {});
  }, 90_000);

  it(`keeps them across compactions (${COMPACTING_TRIALS} kills, the file compacted every few KiB appended)`, async () => {
    const file = join(dir, 'compacting.db');
    const { inodes } = await killTrials(file, COMPACTING_TRIALS, { compactBytes: 4096 });
    expect(inodes.size, 'compactions replaced the file').toBeGreaterThan(1);
    // A compaction a kill interrupted would leave its temporary file; the next start removes it. (The
    // last mock was killed too: its lock file stays, for the next start to take over.)
    expect(readdirSync(dir).filter((name) => /^compacting\.db\.\d+\.tmp$/.test(name))).toEqual([]);
  }, 60_000);
});
