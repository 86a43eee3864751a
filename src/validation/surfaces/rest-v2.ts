// REST v2's validators alone: what a REST v2 client loads lazily (../surface-loader.ts), nothing of the other surfaces.
import * as table from '../../../generated/validators/rest-v2.index.js';
import { surfaceValidation } from '../surface-check.js';

export const validation = surfaceValidation('restV2', table);
