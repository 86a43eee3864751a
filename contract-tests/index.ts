// The conformance suite: one check per rule of specs/rules.yaml, registered on import.
import './checks/auth.js';
import './checks/rest.js';
import './checks/graphql.js';
import './checks/queue.js';
import './checks/queue-io.js';
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
