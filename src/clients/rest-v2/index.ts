// Public surface of the REST v2 client (to be re-exported from the package root).
export { createRestV2Client, type LogLine, type LogStreamOptions, type RestV2Client } from './client.js';
export { REST_V2_DEFAULT_BASE_URL, type RestV2ClientOptions } from './core.js';
export {
  REST_V2_OPERATIONS,
  type RestV2Args,
  type RestV2RequestBody,
  type RestV2JsonOperationId,
  type RestV2OperationId,
  type RestV2PathParams,
  type RestV2QueryParams,
  type RestV2Result,
  type RestV2Schemas,
  type RestV2StreamOperationId,
} from './operations.js';
export { parseRateLimit, type RateLimitState, type RateLimitWindow } from './rate-limit.js';
export type { SseEvent, SseResumeOptions } from './sse.js';
