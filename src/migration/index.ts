// REST v1 → REST v2 migration: the map (specs/migration/rest-v1-to-v2.yaml) and one converter per v1
// operationId, typed with the generated REST v1 request types. v2 bodies are plain JSON objects until
// generated REST v2 types exist.
import type { operations as RestV1Operations } from '../../generated/rest-v1/types.js';
import type { JsonBody } from '../../generated/validators/types.js';
import { convertBody } from './convert.js';
import { loadMigrationMap, type MigrationMap } from './map.js';

export * from './map.js';
export type { MigratedV1OperationId } from '../../generated/migration.js';
export {
  convertBody,
  convertQuery,
  convertPath,
  v1ListFromV2,
  problemFromV1Error,
  v2OperationFor,
  operationMapping,
  shellQuote,
  MigrationError,
  type Conversion,
  type DroppedField,
  type ProblemDetails,
} from './convert.js';

export type RestV1OperationId = keyof RestV1Operations;
/** The JSON body a REST v1 operation takes (never for operations without one). */
export type RestV1Body<K extends RestV1OperationId> = JsonBody<RestV1Operations[K]>;
/** A REST v2 request body (untyped until generated REST v2 types exist). */
export type RestV2Body = Record<string, unknown>;

/** `migrate.createPod(v1Body)` → the v2 body (undefined when the v2 request has none). Throws MigrationError
 *  for operations without a v2 equivalent (resetPod) and for v1 fields the map does not know. */
export type Migrate = { [K in RestV1OperationId]: (v1Body?: RestV1Body<K>) => RestV2Body | undefined };

export const migrationMap: MigrationMap = loadMigrationMap();

export const migrate = Object.fromEntries(
  Object.keys(migrationMap.operations).map((id) => [id, (v1Body?: unknown) => convertBody(id, v1Body).value]),
) as Migrate;
