// Response shapes of the compute-rest-v2 pact: every field the spec marks required (the pact ↔ spec
// check validates each example), matched by type where the provider chooses the value and literally
// where the consumer set it. Example ids are fixed, so the pact file never changes between runs.
import { MatchersV3 } from '@pact-foundation/pact';
import { NAMES } from '../../src/pact/state-names.js';
import { GRAPHQL_TEMPLATE, V2_TEMPLATE } from '../../src/pact/rest-v2-fixtures.js';

const { like, eachLike, integer, boolean, regex } = MatchersV3;

export const V2_IDS = {
  template: '9x4m2p7v',
} as const;

/** A pod template as the states and the creation interaction make it (`disk` may be updated). */
export const v2Template = (fields: { disk?: number } = {}) =>
  templateShape({ name: NAMES.v2Template, disk: fields.disk ?? V2_TEMPLATE.disk, ports: eachLike(V2_TEMPLATE.ports[0]), env: like({ ...V2_TEMPLATE.env }) });

/** The template GraphQL saved, read through REST v2: `imageName` → `image`, `containerDiskInGb` → `disk`. */
export const graphqlTemplateInV2 = () => templateShape({ name: GRAPHQL_TEMPLATE.name, disk: GRAPHQL_TEMPLATE.containerDiskInGb, ports: like([]), env: like({}) });

function templateShape(fields: { name: string; disk: number; ports: unknown; env: unknown }) {
  return {
    id: like(V2_IDS.template),
    name: fields.name,
    image: V2_TEMPLATE.image,
    args: like(''),
    disk: integer(fields.disk),
    mounts: like({}),
    ports: fields.ports,
    env: fields.env,
    registry: null,
    serverless: boolean(false),
    public: boolean(false),
    category: like('NVIDIA'),
    startSsh: boolean(true),
    startJupyter: boolean(true),
    allowedCudaVersions: like([]),
  };
}

/** `RateLimit` / `RateLimit-Policy` on an authenticated answer: at least the minute window. */
export const rateLimitHeaders = () => ({
  RateLimit: regex('^(.*, )?"minute";r=\\d+;t=\\d+(, .*)?$', '"minute";r=59;t=60, "hour";r=2999;t=3600, "day";r=49999;t=86400'),
  'RateLimit-Policy': regex('^(.*, )?"minute";q=\\d+;w=60(, .*)?$', '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400'),
});
