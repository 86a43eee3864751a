// REST v2 operation handlers (every operation of specs/rest-v2, keyed by operationId), one module per resource.
import { accountHandlers } from './account.js';
import { billingHandlersV2 } from './billing.js';
import { buildHandlers } from './build-handlers.js';
import { catalogHandlers } from './catalog.js';
import { clusterHandlers } from './clusters.js';
import { logHandlers } from './logs.js';
import { networkVolumeHandlers } from './network-volumes.js';
import { podHandlers } from './pods.js';
import { registryHandlers } from './registries.js';
import { secretHandlers } from './secrets.js';
import { sandboxExecHandlers } from './sandbox-exec.js';
import { sandboxLogHandlers } from './sandbox-logs.js';
import { sandboxHandlers } from './sandboxes.js';
import { serverlessHandlers } from './serverless.js';
import { templateHandlers } from './templates.js';
import type { V2Handler } from './types.js';

export const restV2Handlers: Record<string, V2Handler> = {
  ...templateHandlers,
  ...podHandlers,
  ...logHandlers,
  ...clusterHandlers,
  ...accountHandlers,
  ...secretHandlers,
  ...serverlessHandlers,
  ...buildHandlers,
  ...networkVolumeHandlers,
  ...registryHandlers,
  ...catalogHandlers,
  ...billingHandlersV2,
  ...sandboxHandlers,
  ...sandboxExecHandlers,
  ...sandboxLogHandlers,
};
