// One operation of the generated operations table by surface and operationId (both validation entries
// re-export it; it loads no validator).
import { operations, type OperationInfo, type Surface } from '../../generated/operations.js';

const byId = new Map(operations.map((o) => [`${o.surface}:${o.operationId}`, o]));

export function getOperation(surface: Surface, operationId: string): OperationInfo {
  const op = byId.get(`${surface}:${operationId}`);
  if (!op) throw new Error(`Unknown ${surface} operation "${operationId}"`);
  return op;
}
