// queue v2's validators alone: what a queue v2 client loads lazily (../surface-loader.ts), nothing of the other surfaces.
import * as table from '../../../generated/validators/queue-v2.index.js';
import { surfaceValidation } from '../surface-check.js';

export const validation = surfaceValidation('queueV2', table);
