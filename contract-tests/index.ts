// The conformance suite: one check per rule of specs/rules.yaml. Each module below defines its checks
// (defineCheck) as it loads; this list is the whole suite, and `conformanceChecks` is what a run executes
// (src/entries/conform.ts hands it to the runner — the runner imports no check).
import { registeredChecks, type CheckSuite } from '../src/conform/registry.js';
import './checks/auth.js';
import './checks/rest.js';
import './checks/graphql.js';
import './checks/graphql-sdk.js';
import './checks/graphql-public.js';
import './checks/graphql-cost.js';
import './checks/queue.js';
import './checks/queue-io.js';
import './checks/queue-openai.js';
import './checks/queue-lb.js';
import './checks/lb-direct.js';
import './checks/boundaries.js';
import './checks/time.js';
import './checks/webhook.js';
import './checks/rate.js';
import './checks/mock-only.js';
import './checks/state-rules.js';
import './checks/bounds.js';
import './checks/http.js';
import './checks/cross-surface.js';
import './checks/agreement.js';
import './checks/rest-v2-core.js';
import './checks/rest-v2-serverless.js';
import './checks/rest-v2-resources.js';
import './checks/rest-v2-catalog.js';
import './checks/rest-v2-pods.js';
import './checks/rest-v2-logs.js';
import './checks/rest-v2-clusters.js';
import './checks/rest-v2-cross.js';
import './checks/isolation.js';
import './checks/rest-v2-builds.js';
import './checks/rest-v2-secrets.js';
import './checks/rest-v2-secrets-cross.js';
import './checks/rest-v2-sandboxes.js';

export const conformanceChecks: CheckSuite = registeredChecks();
