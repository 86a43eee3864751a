// openapi-typescript types for one bundled spec.
import openapiTS, { astToString } from 'openapi-typescript';
import type { OpenApiDocument } from './specs.js';

export async function openapiTypes(doc: OpenApiDocument): Promise<string> {
  const ast = await openapiTS(doc as never, { alphabetize: false, exportType: false, defaultNonNullable: false });
  return astToString(ast);
}
