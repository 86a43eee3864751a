// Regenerates everything under generated/ from specs/ (npm run generate).
import { bannerText, GeneratedOutput } from './generators/output.js';
import { bundleSpec, surfaces, type OpenApiDocument, type SurfaceName } from './generators/specs.js';
import { openapiTypes } from './generators/openapi-types.js';
import { operationsModule, operationsTable, type OperationInfo } from './generators/operations.js';
import { queryStylesModule, queryStylesOf } from './generators/query-styles.js';
import { buildValidators, declarations, type SurfaceValidators } from './generators/validators.js';
import { validatorRuntimeDeclarations, validatorRuntimeModule } from './generators/validator-runtime.js';
import { surfaceValidatorIndexModule, surfaceValidatorIndexPath, validatorIndexModule, validatorTypesModule } from './generators/validator-index.js';
import { graphqlFiles } from './generators/graphql.js';
import { rulesModule } from './generators/rules.js';
import { migrationModule } from './generators/migration.js';
import { documentedExtensions } from './generators/extensions.js';

// performance.now() counts from process start, so the figure includes loading the generators.
const started = 0;
const out = new GeneratedOutput();
const extensions = await documentedExtensions();
const docs = {} as Record<SurfaceName, OpenApiDocument>;
const allOperations: OperationInfo[] = [];
const allValidators: SurfaceValidators[] = [];

for (const surface of Object.keys(surfaces) as SurfaceName[]) {
  const dir = surfaces[surface].dir;
  const doc = await bundleSpec(surface);
  docs[surface] = doc;
  await out.write(`${dir}/openapi.json`, `${JSON.stringify({ 'x-generated': bannerText, ...doc }, null, 2)}\n`);
  await out.write(`${dir}/types.ts`, await openapiTypes(doc));
  allOperations.push(...operationsTable(surface, doc));
  const v = buildValidators(surface, doc, extensions);
  allValidators.push(v);
  await out.write(`validators/${dir}.js`, v.module);
  await out.write(`validators/${dir}.d.ts`, declarations(v.exportNames));
  await out.write(`validators/${dir}.params.js`, v.paramsModule);
  await out.write(`validators/${dir}.params.d.ts`, declarations(v.paramsExportNames));
  await out.write(surfaceValidatorIndexPath(v), surfaceValidatorIndexModule(v));
}
// The worker protocol (requests a worker makes): bundled and typed for readers and the worker runtime.
const workerSpec = await bundleSpec('worker');
await out.write('worker/openapi.json', `${JSON.stringify({ 'x-generated': bannerText, ...workerSpec }, null, 2)}\n`);
await out.write('worker/types.ts', await openapiTypes(workerSpec));
await out.write('validators/runtime.js', validatorRuntimeModule());
await out.write('validators/runtime.d.ts', validatorRuntimeDeclarations());
await out.write('validators/types.ts', validatorTypesModule());
await out.write('validators/index.ts', validatorIndexModule(allValidators));
await out.write('operations.ts', operationsModule(allOperations, docs.queueV2, docs.restV2));
await out.write('query-styles.ts', queryStylesModule({ restV1: queryStylesOf(docs.restV1), queueV2: queryStylesOf(docs.queueV2), restV2: queryStylesOf(docs.restV2) }));
for (const file of await graphqlFiles()) await out.write(file.path, file.content);
const rules = await rulesModule();
await out.write('rules.ts', rules.module);
const migration = await migrationModule();
await out.write('migration.ts', migration.module);

const removed = await out.removeStale();
const validatorCount = allValidators.reduce((n, v) => n + v.exportNames.length + v.paramsExportNames.length, 0);
const perSurface = Object.keys(surfaces)
  .map((s) => `${s} ${allOperations.filter((o) => o.surface === s).length}`)
  .join(', ');
console.log(
  `generated ${out.count} files in ${Math.round(performance.now() - started)} ms: operations ${perSurface}; ` +
    `${validatorCount} validators; ${rules.count} rules; ${migration.count} migration entries` + (removed.length ? `; removed stale ${removed.join(', ')}` : ''),
);
