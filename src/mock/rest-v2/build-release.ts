// A COMPLETED build becomes a release of its endpoint: the endpoint's workers run the build's image from
// then on (the pool replaces stale idle workers, busy ones when their job ends), and that release says
// `source: GIT_BUILD` with the build's id. The endpoint's own template takes the image; a template other
// endpoints or pods share is left alone and the endpoint moves to a copy of it.
import type { MockCore } from '../core.js';
import { currentRelease, releasesOf, type ReleaseRecord } from '../state/releases.js';
import type { BuildRecord } from './builds.js';

export interface BuildRelease extends ReleaseRecord {
  source?: 'GIT_BUILD';
  buildId?: string;
}

export function releaseBuild(anyView: MockCore, build: BuildRecord): void {
  const core = anyView.forAccount(build.account);
  const endpoint = core.store.endpoints.get(build.endpointId);
  if (!endpoint) return;
  const before = currentRelease(endpoint);
  const templateId = endpoint.templateId;
  const template = core.store.templates.get(templateId);
  const shared = !template || core.store.templateUsers(templateId).some((user) => user !== `endpoint ${endpoint.id}`);
  if (!shared) {
    core.store.updateTemplate(templateId, { imageName: build.imageName });
  } else {
    const { id: _id, name, ...fields } = template ?? { id: '', name: endpoint.name ?? endpoint.id };
    const copy = core.store.saveTemplate({ ...fields, name: `${String(name).slice(0, 150)} · ${build.id}`, imageName: build.imageName, isServerless: true, createdThrough: 'build' });
    if (!copy.ok) return;
    core.store.updateEndpoint(endpoint.id, { templateId: copy.value.id });
  }
  const after = core.store.endpoints.get(build.endpointId);
  if (!after || currentRelease(after) === before) return;
  const release = releasesOf(after).at(-1) as BuildRelease;
  release.source = 'GIT_BUILD';
  release.buildId = build.id;
  core.store.endpoints.touch(after.id);
  core.touch();
}
