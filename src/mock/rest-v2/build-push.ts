// Control API: `POST /__control/endpoints/{id}/builds` simulates a push to the endpoint's GitHub repository,
// which starts a build (builds.ts). Body (all optional): {commitHash, commitMessage, branch, outcome}, outcome
// one of COMPLETED (default), FAILED, CANCELLED, TEST_FAILED. Answers 201 with the build as REST v2 shows it.
import type { ServerResponse } from 'node:http';
import type { MockCore } from '../core.js';
import { sendError, sendJson } from '../http.js';
import { renderBuild } from './build-handlers.js';
import { BUILD_OUTCOMES, type BuildOutcome, type Push } from './builds.js';

const TEXT_FIELDS = { commitHash: /^[0-9a-f]{7,40}$/, commitMessage: /^[^\n]{1,500}$/, branch: /^[\w./-]{1,255}$/ } as const;

export function simulatePush(core: MockCore, endpointId: string, body: Record<string, unknown>, res: ServerResponse): void {
  const owner = core.accounts.ownerOf('endpoints', endpointId);
  if (owner === undefined) return sendError(res, 404, `endpoint ${endpointId} not found`);
  const errors: { path: string; message: string }[] = [];
  const push: Push = {};
  for (const [name, pattern] of Object.entries(TEXT_FIELDS) as [keyof typeof TEXT_FIELDS, RegExp][]) {
    const value = body[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !pattern.test(value)) errors.push({ path: `/body/${name}`, message: `must match ${pattern}` });
    else push[name] = value;
  }
  const outcome = body['outcome'];
  if (outcome !== undefined) {
    if (!(BUILD_OUTCOMES as readonly unknown[]).includes(outcome)) errors.push({ path: '/body/outcome', message: `must be one of ${BUILD_OUTCOMES.join(', ')}` });
    else push.outcome = outcome as BuildOutcome;
  }
  const unknown = Object.keys(body).filter((k) => !(k in TEXT_FIELDS) && k !== 'outcome');
  for (const k of unknown) errors.push({ path: `/body/${k}`, message: 'unknown field' });
  if (errors.length > 0) return sendError(res, 400, 'Invalid control request', errors);
  const build = core.builds.start(endpointId, owner, push, (id) => core.accounts.ownerOf('endpoints', id) !== undefined);
  sendJson(res, 201, renderBuild(build));
}
