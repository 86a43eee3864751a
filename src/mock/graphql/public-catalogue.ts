// The GraphQL catalogue anyone may read without a key (SDL `x-auth: none`): GPU offers per cloud and CUDA
// version (lowestPrice, from the same stock as REST v2's catalogue), the Hub's listings and the Public
// Endpoints, the last two from specs/fixtures/graphql-public/. Nothing here reads an account.
import { readFileSync } from 'node:fs';
import { GraphQLError } from 'graphql';
import type { MockCore } from '../core.js';
import { packageFile } from '../../contract/package-files.js';
import type { GpuTypeData, Level } from '../rest-v2/catalog-data.js';
import { podStockLevel } from '../rest-v2/catalog.js';

type View = Record<string, unknown>;

export interface HubListing {
  id: string;
  title: string;
  description: string | null;
  repoName: string;
  repoOwner: string;
  tags: string[];
  type: 'SERVERLESS' | 'POD';
  listedRelease: { id: string; tagName: string; config: string | null; build: { id: string; imageName: string } | null } | null;
  [field: string]: unknown;
}

const readFixture = <T>(file: string): T => JSON.parse(readFileSync(packageFile(`specs/fixtures/graphql-public/${file}`), 'utf8')) as T;

export const HUB_LISTINGS: readonly HubListing[] = readFixture<HubListing[]>('hub-listings.json');
export { PUBLIC_ENDPOINT_CONFIGS } from '../simulated-workers/public-endpoints.js';

/** The SERVERLESS listing whose listed release has this id and a built image, or a refusal naming why not. */
export function deployableHubRelease(releaseId: string): HubListing {
  const listing = HUB_LISTINGS.find((l) => l.listedRelease?.id === releaseId);
  const refuse = (message: string): never => {
    throw new GraphQLError(message, { extensions: { code: listing ? 'BAD_USER_INPUT' : 'NOT_FOUND' } });
  };
  if (!listing) return refuse(`input.hubReleaseId: no listed Hub release '${releaseId}' (see listings)`);
  if (listing.type !== 'SERVERLESS') return refuse(`input.hubReleaseId: '${releaseId}' is a release of the ${listing.type} listing ${listing.repoOwner}/${listing.repoName}; only SERVERLESS listings deploy as endpoints`);
  if (!listing.listedRelease?.build) return refuse(`input.hubReleaseId: release '${releaseId}' has no built image yet`);
  return listing;
}

export function listings(input: { type?: string | null; searchTerm?: string | null } | null | undefined): readonly HubListing[] {
  const term = input?.searchTerm?.toLowerCase();
  return HUB_LISTINGS.filter((l) => (!input?.type || l.type === input.type)
    && (!term || [l.title, l.description ?? '', l.repoName, l.repoOwner, ...l.tags].some((text) => text.toLowerCase().includes(term))));
}

const STOCK_STATUS: Record<Level, string | null> = { NONE: null, LOW: 'Low', MEDIUM: 'Medium', HIGH: 'High' };
const LEVEL_ORDER: readonly Level[] = ['NONE', 'LOW', 'MEDIUM', 'HIGH'];

export interface LowestPriceInput {
  gpuCount?: number | null;
  secureCloud?: boolean | null;
  allowedCudaVersions?: readonly string[] | null;
}

/**
 * The cheapest cloud offering `gpuCount` GPUs of the type (secureCloud true/false: that cloud only), or null
 * when none does; its stock is the best of those clouds' REST v2 POD availability under the CUDA filter.
 */
export function lowestPrice(core: MockCore, gpu: GpuTypeData, input: LowestPriceInput | null | undefined): View | null {
  const count = input?.gpuCount ?? 1;
  const cudaVersions = input?.allowedCudaVersions ?? [];
  const clouds = ([['SECURE', gpu.secure, gpu.maxCount.secure, gpu.price.secure], ['COMMUNITY', gpu.community, gpu.maxCount.community, gpu.price.community]] as const)
    .filter(([cloud, offered, ceiling]) => offered && count <= ceiling && (input?.secureCloud == null || input.secureCloud === (cloud === 'SECURE')));
  if (clouds.length === 0) return null;
  const level = (versions: readonly string[]): Level => clouds
    .map(([cloud]) => podStockLevel(core, gpu, { count, cloud, cudaVersions: versions }))
    .reduce((a, b) => (LEVEL_ORDER.indexOf(b) > LEVEL_ORDER.indexOf(a) ? b : a), 'NONE');
  const versions = cudaVersions.length > 0 ? gpu.cuda.filter((v) => cudaVersions.includes(v)) : gpu.cuda;
  return {
    minimumBidPrice: null,
    uninterruptablePrice: Math.min(...clouds.map(([, , , price]) => price as number)),
    stockStatus: STOCK_STATUS[level(cudaVersions)],
    gpuTypeCudaVersions: versions.map((cudaVersion) => ({ cudaVersion, availability: level([cudaVersion]) === 'NONE' ? 'UNAVAILABLE' : 'AVAILABLE' })),
  };
}
