// Pact Broker support, kept thin: read settings from the environment, build the publish request
// (`POST /contracts/publish`) and the verifier's broker options. Without PACT_BROKER_BASE_URL none
// of this is used and everything works on the files in pacts/.
import { execFileSync } from 'node:child_process';
import { CONSUMER, PROVIDERS, type PactSurface } from './participants.js';

export interface BrokerSettings {
  baseUrl: string;
  /** Bearer token (PactFlow, or a broker with token auth). */
  token?: string;
  username?: string;
  password?: string;
}

/** Broker settings from PACT_BROKER_BASE_URL + PACT_BROKER_TOKEN (or _USERNAME / _PASSWORD); undefined without a URL. */
export function brokerFromEnv(env: NodeJS.ProcessEnv): BrokerSettings | undefined {
  const baseUrl = env.PACT_BROKER_BASE_URL?.trim();
  if (!baseUrl) return undefined;
  const settings: BrokerSettings = { baseUrl: baseUrl.replace(/\/+$/, '') };
  if (env.PACT_BROKER_TOKEN) settings.token = env.PACT_BROKER_TOKEN;
  else if (env.PACT_BROKER_USERNAME) {
    settings.username = env.PACT_BROKER_USERNAME;
    settings.password = env.PACT_BROKER_PASSWORD ?? '';
  }
  return settings;
}

export function brokerHeaders(broker: BrokerSettings): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/hal+json' };
  if (broker.token) headers.authorization = `Bearer ${broker.token}`;
  else if (broker.username !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${broker.username}:${broker.password ?? ''}`).toString('base64')}`;
  }
  return headers;
}

export interface VersionInfo {
  version: string;
  branch?: string;
  buildUrl?: string;
}

/**
 * The version of this repository as the broker should record it: `PACT_VERSION` or the git commit;
 * branch from `PACT_BRANCH` or git; build URL from `PACT_BUILD_URL`.
 */
export function versionFromEnv(env: NodeJS.ProcessEnv, git: (args: string[]) => string | undefined = runGit): VersionInfo {
  const version = env.PACT_VERSION ?? git(['rev-parse', 'HEAD']);
  if (!version) throw new Error('set PACT_VERSION (no git commit found) to publish or verify against a broker');
  const info: VersionInfo = { version };
  const branch = env.PACT_BRANCH ?? git(['rev-parse', '--abbrev-ref', 'HEAD']);
  if (branch && branch !== 'HEAD') info.branch = branch;
  if (env.PACT_BUILD_URL) info.buildUrl = env.PACT_BUILD_URL;
  return info;
}

function runGit(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

export interface PublishRequest {
  url: string;
  init: { method: 'POST'; headers: Record<string, string>; body: string };
}

/** The broker's "publish contracts" request for the given pact files (contents as read from pacts/). */
export function buildPublishRequest(broker: BrokerSettings, version: VersionInfo, pacts: { surface: PactSurface; content: string }[]): PublishRequest {
  const body = {
    pacticipantName: CONSUMER,
    pacticipantVersionNumber: version.version,
    ...(version.branch ? { branch: version.branch } : {}),
    ...(version.buildUrl ? { buildUrl: version.buildUrl } : {}),
    contracts: pacts.map(({ surface, content }) => ({
      consumerName: CONSUMER,
      providerName: PROVIDERS[surface],
      specification: 'pact',
      contentType: 'application/json',
      content: Buffer.from(content, 'utf8').toString('base64'),
    })),
  };
  return { url: `${broker.baseUrl}/contracts/publish`, init: { method: 'POST', headers: brokerHeaders(broker), body: JSON.stringify(body) } };
}

/** Options handed to the pact-js Verifier when pacts come from the broker instead of files. */
export interface BrokerVerifierOptions {
  pactBrokerUrl?: string;
  pactUrls?: string[];
  pactBrokerToken?: string;
  pactBrokerUsername?: string;
  pactBrokerPassword?: string;
  providerVersion: string;
  providerVersionBranch?: string;
  buildUrl?: string;
  publishVerificationResult: boolean;
  consumerVersionSelectors?: { mainBranch?: boolean; matchingBranch?: boolean; deployedOrReleased?: boolean }[];
  enablePending?: boolean;
  includeWipPactsSince?: string;
}

/**
 * Broker verification options. `PACT_URL` (set by a broker webhook on "contract requiring
 * verification published") verifies exactly that pact; otherwise the selectors pick main-branch,
 * matching-branch and deployed/released consumer versions, with pending pacts enabled. Results are
 * published only when `PACT_PUBLISH_VERIFICATION_RESULTS=true` (typically on CI).
 */
export function brokerVerifierOptions(broker: BrokerSettings, version: VersionInfo, env: NodeJS.ProcessEnv): BrokerVerifierOptions {
  const options: BrokerVerifierOptions = {
    providerVersion: version.version,
    publishVerificationResult: env.PACT_PUBLISH_VERIFICATION_RESULTS === 'true',
  };
  if (version.branch) options.providerVersionBranch = version.branch;
  if (version.buildUrl) options.buildUrl = version.buildUrl;
  if (broker.token) options.pactBrokerToken = broker.token;
  else if (broker.username !== undefined) {
    options.pactBrokerUsername = broker.username;
    options.pactBrokerPassword = broker.password ?? '';
  }
  if (env.PACT_URL) {
    options.pactUrls = [env.PACT_URL];
    return options;
  }
  options.pactBrokerUrl = broker.baseUrl;
  options.consumerVersionSelectors = [{ mainBranch: true }, { matchingBranch: true }, { deployedOrReleased: true }];
  options.enablePending = true;
  if (env.PACT_INCLUDE_WIP_PACTS_SINCE) options.includeWipPactsSince = env.PACT_INCLUDE_WIP_PACTS_SINCE;
  return options;
}
