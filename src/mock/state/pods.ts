// The lifecycle of a pod record shared by REST v1, REST v2 and GraphQL: create (image from the template when
// not given), update, start/stop/reset/restart with billed running time, delete. The store (store.ts) keeps the
// records and the cross-resource rules; this says how one pod's record changes.
import type { Clock } from '../clock.js';
import type { PodRecord, TemplateRecord } from '../types.js';
import type { TrackedMap } from '../state-journal/tracked-map.js';
import { resourceId } from './ids.js';
import { podHardware } from './pod-hardware.js';
import { recordUsage, usageOn } from './usage.js';
import { ok, notFound, badRequest, type Failure, type Result, type PodObserver } from './results.js';

type Body = Record<string, unknown>;

/** What a pod's lifecycle needs of the account's store. */
export interface PodStore {
  readonly pods: TrackedMap<PodRecord>;
  readonly clock: Clock;
  /** A reference of the body to a record that does not exist (templates, volumes, registry auths …). */
  refusal(body: Body): Failure | undefined;
  /** The heap ceiling refuses every create. */
  atCapacity(): Failure | undefined;
  template(id: string): TemplateRecord | undefined;
  /** A pod stopped using a template (its delete delay starts). */
  templateReleased(templateId: unknown): void;
  observer(): PodObserver | undefined;
}

export class PodLifecycle {
  constructor(private readonly store: PodStore) {}

  create(body: Body): Result<PodRecord> {
    const refused = this.store.refusal(body) ?? this.store.atCapacity();
    if (refused) return refused;
    const template = typeof body['templateId'] === 'string' ? this.store.template(body['templateId']) : undefined;
    const image = (body['imageName'] as string | undefined) ?? template?.imageName;
    if (!image) return badRequest('imageName or templateId is required', '/body/imageName');
    const now = this.store.clock.now();
    const { imageName: _ignored, ...rest } = body;
    const record: PodRecord = {
      ...rest,
      // Stored once, rendered by every surface (RESTV2-CROSS-006).
      ...podHardware(rest),
      id: resourceId(),
      name: typeof body['name'] === 'string' ? body['name'] : 'my pod',
      image,
      desiredStatus: 'RUNNING',
      createdAt: now,
      runningSince: now,
      billedMs: 0,
      lastStartedAt: new Date(now).toISOString(),
      lastStatusChange: `Rented by User: ${new Date(now).toISOString()}`,
    };
    this.store.pods.set(record.id, record);
    this.store.observer()?.podChanged(record, 'created');
    return ok(record);
  }

  update(id: string, body: Body): Result<PodRecord> {
    const record = this.store.pods.get(id);
    if (!record) return notFound('pod');
    const refs = this.store.refusal(body);
    if (refs) return refs;
    const { imageName, ...rest } = body;
    const next = { ...record, ...rest } as PodRecord;
    if (typeof imageName === 'string') next['image'] = imageName;
    if (next.templateId !== record.templateId) this.store.templateReleased(record.templateId);
    this.store.pods.set(id, next);
    this.store.observer()?.podChanged(next, 'updated');
    return ok(next);
  }

  setStatus(id: string, action: 'start' | 'stop' | 'reset' | 'restart'): Result<PodRecord> {
    const pod = this.store.pods.get(id);
    if (!pod) return notFound('pod');
    const now = this.store.clock.now();
    const iso = new Date(now).toISOString();
    if (action === 'stop') {
      if (pod.desiredStatus === 'RUNNING') this.accrue(pod, now);
      pod.desiredStatus = 'EXITED';
      pod.runningSince = undefined;
      pod.lastStatusChange = `Exited by User: ${iso}`;
      this.store.pods.touch(id);
      this.store.observer()?.podChanged(pod, 'stopped');
      return ok(pod);
    }
    // reset/restart of an EXITED pod starts it, like start (the spec states no refusal).
    if (pod.desiredStatus === 'RUNNING') this.accrue(pod, now);
    pod.desiredStatus = 'RUNNING';
    pod.runningSince = now;
    pod.lastStartedAt = iso;
    pod.lastStatusChange = `${action === 'start' ? 'Resumed' : action === 'reset' ? 'Reset' : 'Restarted'} by User: ${iso}`;
    // A globalNetworking change (REST v2 updatePod) waits for the next start or restart, on any surface.
    if (typeof pod['globalNetworkingNext'] === 'boolean') {
      pod['globalNetworking'] = pod['globalNetworkingNext'];
      delete pod['globalNetworkingNext'];
    }
    this.store.pods.touch(id);
    this.store.observer()?.podChanged(pod, action === 'start' ? 'started' : action === 'reset' ? 'reset' : 'restarted');
    return ok(pod);
  }

  /** Adds the running time since `runningSince` to the pod's billed time. */
  accrue(pod: PodRecord, now: number): void {
    if (typeof pod.runningSince === 'number') {
      pod.billedMs = ((pod.billedMs as number | undefined) ?? 0) + (now - pod.runningSince);
      recordUsage(usageOn(pod), pod.runningSince, now);
      pod.runningSince = now;
    }
  }

  delete(id: string): Result<PodRecord> {
    const pod = this.store.pods.get(id);
    if (!pod) return notFound('pod');
    this.store.pods.delete(id);
    this.store.templateReleased(pod.templateId);
    this.store.observer()?.podChanged(pod, 'deleted');
    return ok(pod);
  }
}
