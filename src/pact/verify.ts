// Provider verification: one pact-js Verifier per provider (surface), pointed at the target's URL
// for that surface, with the state handlers and a request filter that swaps the pacts' placeholder
// key for the target's real one (so no credential is ever written into a contract or a pact log).
import { Verifier, type VerifierOptions } from '@pact-foundation/pact';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brokerVerifierOptions, type BrokerSettings, type VersionInfo } from './broker.js';
import { PACT_API_KEY, PACT_SURFACES, PROVIDERS, pactFilePath, providerBaseUrl, type PactSurface } from './participants.js';
import { ProviderWorld } from './provider-world.js';
import { createStateHandlers } from './state-handlers.js';
import { pactSurfaceUrl, type PactTarget } from './target.js';

export interface VerifyOptions {
  target: PactTarget;
  surfaces?: PactSurface[];
  /** Pact files folder (file mode). */
  pactDir?: string;
  /** With a broker: pacts come from it and results may be published. */
  broker?: { settings: BrokerSettings; version: VersionInfo; env: NodeJS.ProcessEnv };
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
}

export interface SurfaceResult {
  surface: PactSurface;
  provider: string;
  ok: boolean;
  /** Verifier output on failure. */
  error?: string;
}

/** Express middleware: `Bearer pact-api-key` / `api_key=pact-api-key` → the target's key; anything else passes unchanged. */
export function credentialFilter(apiKey: string) {
  const placeholderQuery = new RegExp(`([?&]api_key=)${PACT_API_KEY}(?=&|$)`);
  return (req: IncomingMessage, _res: ServerResponse, next: () => void): void => {
    if (req.headers.authorization === `Bearer ${PACT_API_KEY}`) req.headers.authorization = `Bearer ${apiKey}`;
    if (req.url?.includes(`api_key=${PACT_API_KEY}`)) req.url = req.url.replace(placeholderQuery, `$1${encodeURIComponent(apiKey)}`);
    next();
  };
}

/** The Verifier's options for one surface (exported for tests of the argument building). */
export function verifierOptions(surface: PactSurface, options: VerifyOptions, world: ProviderWorld): VerifierOptions {
  const base: VerifierOptions = {
    provider: PROVIDERS[surface],
    providerBaseUrl: providerBaseUrl(surface, pactSurfaceUrl(options.target, surface)),
    // The option's type also admits message-pact handlers (plain functions); ours are {setup, teardown}.
    stateHandlers: createStateHandlers(world) as unknown as VerifierOptions['stateHandlers'],
    // pact-js types this as an express handler; ours only needs the node:http request it wraps.
    requestFilter: credentialFilter(options.target.apiKey) as unknown as VerifierOptions['requestFilter'],
    logLevel: options.logLevel ?? 'warn',
    failIfNoPactsFound: true,
  };
  if (options.broker) {
    return { ...base, ...brokerVerifierOptions(options.broker.settings, options.broker.version, options.broker.env) };
  }
  return { ...base, pactUrls: [pactFilePath(surface, options.pactDir)] };
}

/** Verifies each surface in turn (states of one surface must not race another's resets). */
export async function verifyProviders(options: VerifyOptions): Promise<SurfaceResult[]> {
  // The Pact core otherwise reports usage to an analytics host (opt back in with PACT_DO_NOT_TRACK=false).
  process.env.PACT_DO_NOT_TRACK ??= 'true';
  const results: SurfaceResult[] = [];
  for (const surface of options.surfaces ?? PACT_SURFACES) {
    const world = new ProviderWorld(options.target);
    const provider = PROVIDERS[surface];
    try {
      await new Verifier(verifierOptions(surface, options, world)).verifyProvider();
      results.push({ surface, provider, ok: true });
    } catch (error) {
      results.push({ surface, provider, ok: false, error: error instanceof Error ? error.message : String(error) });
    } finally {
      await world.cleanup();
    }
  }
  return results;
}
