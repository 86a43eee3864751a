// Who the pacts are between, where they live, and the placeholder credentials they carry.
// One consumer (this package's clients) and one provider per surface, because each surface has its
// own base URL and a Pact verifier checks one base URL at a time.
import path from 'node:path';
import { packageRoot } from '../contract/package-files.js';

export const CONSUMER = 'compute-contract-clients';

export const PROVIDERS = {
  restV1: 'compute-rest-v1',
  queueV2: 'compute-queue-v2',
  graphql: 'compute-graphql',
  restV2: 'compute-rest-v2',
} as const;

export type PactSurface = keyof typeof PROVIDERS;
export type ProviderName = (typeof PROVIDERS)[PactSurface];

export const PACT_SURFACES = Object.keys(PROVIDERS) as PactSurface[];

/** Repository root (this file is src/pact/participants.ts). */
export const REPO_ROOT = packageRoot;

/** Committed pact files. */
export const PACT_DIR = path.join(REPO_ROOT, 'pacts');

export function pactFileName(surface: PactSurface): string {
  return `${CONSUMER}-${PROVIDERS[surface]}.json`;
}

export function pactFilePath(surface: PactSurface, dir: string = PACT_DIR): string {
  return path.join(dir, pactFileName(surface));
}

export function surfaceOfProvider(provider: string): PactSurface | undefined {
  return PACT_SURFACES.find((surface) => PROVIDERS[surface] === provider);
}

/**
 * The pacts carry this key. It is a placeholder, not a secret: the verifier swaps it for the
 * target's real key on the way out, so contracts never contain a credential.
 */
export const PACT_API_KEY = 'pact-api-key';
/** The key the 401 interactions send; the verifier passes it through unchanged. */
export const PACT_WRONG_API_KEY = 'pact-wrong-key';

/**
 * Path prefixes of each surface inside the pacts. The consumer tests point the clients at
 * `{mock}/v1`, `{mock}/v2`, `{mock}/graphql` and `{mock}` (REST v2: its paths carry `/v2`), so pact
 * paths look like the real service's (`/v1/endpoints`, `/v2/{endpointId}/run`, `/graphql`,
 * `/v2/templates`), and a provider's base URL is the target URL with that segment removed.
 */
export const SURFACE_PREFIX: Record<PactSurface, string> = {
  restV1: '/v1',
  queueV2: '/v2',
  graphql: '/graphql',
  restV2: '/v2',
};

/** Provider base URL for a surface from the target's surface URL (`https://rest.example/v1` → `https://rest.example`). */
export function providerBaseUrl(surface: PactSurface, surfaceUrl: string): string {
  const url = new URL(surfaceUrl);
  const pathname = url.pathname.replace(/\/+$/, '');
  const prefix = SURFACE_PREFIX[surface];
  if (!pathname.endsWith(prefix)) {
    throw new Error(`${surface} URL ${url.origin}${pathname} must end in ${prefix} (the pacts' paths start with it)`);
  }
  return `${url.origin}${pathname.slice(0, -prefix.length)}`;
}
