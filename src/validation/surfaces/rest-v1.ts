// REST v1's validators alone: what a REST v1 client loads lazily (../surface-loader.ts), nothing of the other surfaces.
import * as table from '../../../generated/validators/rest-v1.index.js';
import { surfaceValidation } from '../surface-check.js';

export const validation = surfaceValidation('restV1', table);
