// Provider verification of the pacts: `npm run pact:verify [-- --provider queueV2] [target flags]`.
// Target flags/env are the conformance suite's (--rest-url, --queue-url, --graphql-url, --rest-v2-url,
// --api-key, --endpoint-id, --control-url; CONFORM_*); none → the embedded mock. A remote target needs
// the URL of each provider verified. PACT_BROKER_BASE_URL → pacts
// come from the broker (results published with PACT_PUBLISH_VERIFICATION_RESULTS=true).
import { brokerFromEnv, versionFromEnv } from '../src/pact/broker.js';
import { PACT_SURFACES, PROVIDERS, type PactSurface } from '../src/pact/participants.js';
import { resolvePactTarget } from '../src/pact/target.js';
import { verifyProviders } from '../src/pact/verify.js';

function splitProviders(argv: string[]): { surfaces: PactSurface[]; rest: string[] } {
  const surfaces: PactSurface[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg !== '--provider' && !arg.startsWith('--provider=')) {
      rest.push(arg);
      continue;
    }
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
    const surface = PACT_SURFACES.find((s) => s === value || PROVIDERS[s] === value);
    if (!surface) throw new Error(`--provider must be one of ${PACT_SURFACES.join(', ')} (or ${Object.values(PROVIDERS).join(', ')})`);
    surfaces.push(surface);
  }
  return { surfaces: surfaces.length > 0 ? surfaces : PACT_SURFACES, rest };
}

async function main(): Promise<number> {
  const { surfaces, rest } = splitProviders(process.argv.slice(2));
  const broker = brokerFromEnv(process.env);
  const started = await resolvePactTarget(rest, process.env, surfaces);
  try {
    console.log(`pact:verify → ${started.target.name}; pacts from ${broker ? broker.baseUrl : 'pacts/'}`);
    const results = await verifyProviders({
      target: started.target,
      surfaces,
      broker: broker ? { settings: broker, version: versionFromEnv(process.env), env: process.env } : undefined,
    });
    for (const result of results) console.log(`${result.ok ? 'PASS' : 'FAIL'} ${result.provider}${result.error ? `: ${result.error}` : ''}`);
    return results.every((r) => r.ok) ? 0 : 1;
  } finally {
    await started.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`pact:verify: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
