// REST v2 operation handlers (53 operations, keyed by operationId), one module per resource.
import { templateHandlers } from './templates.js';
import type { V2Handler } from './types.js';

export const restV2Handlers: Record<string, V2Handler> = {
  ...templateHandlers,
};
