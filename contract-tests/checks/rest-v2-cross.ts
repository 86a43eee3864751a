// One state, one set of rules, whichever surface wrote it (issue 20): RESTV2-CROSS-004 (template
// reference kept and enforced), RESTV2-CROSS-005 (no defaults a surface does not document),
// RESTV2-CROSS-006 (every surface renders the stored figures), and the URL layout RESTV2-LAYOUT-001.
import { defineCheck } from '../../src/conform/registry.js';
import { expect, expectEqual, expectStatus, type Ctx } from '../../src/conform/context.js';
import { REST_V2_COLLECTIONS } from '../../src/contract/url-layout.js';
import { expectProblem } from './rest-v2-core.js';
import { v2Pod } from './rest-v2-pods.js';

/** A pod template made through REST v2, deleted (after the delete delay when it was used) at the end. */
async function v2PodTemplate(ctx: Ctx, overrides: Record<string, unknown> = {}): Promise<any> {
  const created = await ctx.v2('createTemplate', { body: { name: ctx.name('v2tpl'), image: ctx.target.workerImage, ...overrides } });
  expectStatus(created, 201, 'createTemplate (REST v2)');
  const id = String(created.body.id);
  ctx.cleanup(() => ctx.deleteTemplateEventually(id));
  return created.body;
}

defineCheck('RESTV2-CROSS-004', async (ctx) => {
  const template = await v2PodTemplate(ctx);
  const pod = await v2Pod(ctx, { templateId: template.id, image: undefined });
  expectEqual(pod.template, template.id, 'createPod (REST v2) with templateId: template');
  expectEqual((await ctx.v2('getPod', { path: { id: pod.id } })).body.template, template.id, 'getPod (REST v2): template');
  const v1 = await ctx.rest('getPod', { path: { podId: pod.id } });
  expectStatus(v1, 200, 'getPod (REST v1) of a REST v2 pod');
  expectEqual(v1.body.templateId, template.id, 'REST v1 templateId of a pod created through REST v2 from a template');
  // The template is in use: refused through either surface, and still there.
  expectProblem(await ctx.v2('deleteTemplate', { path: { id: template.id } }), 400, 'deleteTemplate (REST v2) of a template a REST v2 pod uses');
  expectStatus(await ctx.rest('deleteTemplate', { path: { templateId: template.id } }), 400, 'deleteTemplate (REST v1) of a template a REST v2 pod uses');
  expectStatus(await ctx.v2('getTemplate', { path: { id: template.id } }), 200, 'getTemplate after the refused deletes');

  // The same for a pod created through REST v1 from a REST v2 template (one rule set, both directions).
  const other = await v2PodTemplate(ctx);
  const v1Pod = await ctx.pod({ templateId: other.id, imageName: undefined });
  expectEqual((await ctx.v2('getPod', { path: { id: String(v1Pod.id) } })).body.template, other.id, 'getPod (REST v2) of a REST v1 pod made from a template');
  expectProblem(await ctx.v2('deleteTemplate', { path: { id: other.id } }), 400, 'deleteTemplate (REST v2) of a template a REST v1 pod uses');
}, { needs: ['restV1'] });

defineCheck('RESTV2-CROSS-005', async (ctx) => {
  const template = await v2PodTemplate(ctx);
  expectEqual(template.mounts, {}, 'createTemplate (REST v2) without mounts: mounts');
  expectEqual((await ctx.v2('getTemplate', { path: { id: template.id } })).body.mounts, {}, 'getTemplate (REST v2) of a template made without mounts');
  const v1 = await ctx.rest('getTemplate', { path: { templateId: template.id } });
  expectStatus(v1, 200, 'getTemplate (REST v1) of a REST v2 template');
  expect((v1.body.volumeInGb ?? 0) === 0, `REST v1 volumeInGb of a REST v2 template made without mounts is ${JSON.stringify(v1.body.volumeInGb)}, not 0`);
  // A pod made from it without mounts has none either.
  const pod = await v2Pod(ctx, { templateId: template.id, image: undefined });
  expectEqual(pod.mounts, {}, 'createPod (REST v2) from a template without a volume, without mounts: mounts');
}, { needs: ['restV1'] });

defineCheck('RESTV2-CROSS-006', async (ctx) => {
  const sizes = [{ vcpuCount: 2 }, { vcpuCount: 4 }];
  for (const { vcpuCount } of sizes) {
    const pod = await v2Pod(ctx, { gpu: undefined, cpu: { id: 'cpu3c', vcpuCount } });
    const v1 = await ctx.rest('getPod', { path: { podId: pod.id } });
    expectStatus(v1, 200, 'getPod (REST v1) of a REST v2 CPU pod');
    expectEqual(v1.body.memoryInGb, pod.cpu.memory, `REST v1 memoryInGb of a cpu3c pod with ${vcpuCount} vCPUs (REST v2 cpu.memory)`);
    expectEqual(v1.body.vcpuCount, vcpuCount, 'REST v1 vcpuCount of a REST v2 CPU pod');
    expectEqual(v1.body.cpuFlavorId, pod.cpu.id, 'REST v1 cpuFlavorId of a REST v2 CPU pod');
  }
}, { needs: ['restV1', 'restV2'] });

defineCheck('RESTV2-LAYOUT-001', async (ctx) => {
  const queue = ctx.baseUrl('queueV2');
  const headers = { authorization: `Bearer ${ctx.target.apiKey}` };
  for (const collection of REST_V2_COLLECTIONS) {
    const answer = await ctx.http.raw('GET', `${queue}/${collection}/health`, undefined, headers);
    const body = answer.body as { jobs?: unknown; workers?: unknown } | undefined;
    expect(!(answer.status === 200 && body?.jobs !== undefined && body.workers !== undefined), `GET ${queue}/${collection}/health answered an endpoint's health: "${collection}" names an endpoint`);
  }
  const endpoints = await ctx.v2('listEndpoints');
  expectStatus(endpoints, 200, 'listEndpoints');
  for (const { id } of endpoints.body.endpoints as { id: string }[]) expect(!REST_V2_COLLECTIONS.has(id), `endpoint id "${id}" is a REST v2 collection name`);
}, { needs: ['queueV2'] });
