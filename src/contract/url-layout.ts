// The real service's URL layout on one port. REST v2 (api.runpod.io/v2/<collection>/…) and queue v2
// (api.runpod.ai/v2/<endpointId>/…) both start with /v2; the segment after /v2 tells them apart: a REST v2
// collection name, or an endpoint id — and an endpoint id never takes a collection name (queue v2 spec,
// servers[0].variables.endpointId.x-endpoint-id-excludes; rule RESTV2-LAYOUT-001).
import { operations } from '../../generated/operations.js';

/** First segment after `/v2` of every REST v2 operation path (pods, serverless, templates, …), from the spec. */
export const REST_V2_COLLECTIONS: ReadonlySet<string> = new Set(
  operations.filter((op) => op.surface === 'restV2').map((op) => op.path.split('/')[2]!),
);

/** The earlier REST v2 address of the mock (`/rest/v2/…`), kept as an alias. */
export const REST_V2_ALIAS_PREFIX = '/rest';

export type V2Surface = 'restV2' | 'queueV2';

/** Which surface a path `/v2/<segment>…` addresses; `segment` as sent (a %-escaped name is no collection). */
export function surfaceOfV2Segment(segment: string): V2Surface {
  return REST_V2_COLLECTIONS.has(segment) ? 'restV2' : 'queueV2';
}
