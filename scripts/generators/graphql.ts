// graphql-codegen's client preset run in memory through @graphql-codegen/core (the CLI package alone
// took 2–4 s to import, most of `npm run generate`); the driver adds banners and tracks the files.
import { codegen } from '@graphql-codegen/core';
import { preset } from '@graphql-codegen/client-preset';
import { getCachedDocumentNodeFromSchema, type Types } from '@graphql-codegen/plugin-helpers';
import { buildSchema, lexicographicSortSchema, parse, print } from 'graphql';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import config from '../../codegen.js';
import { generatedDir } from './output.js';

export async function graphqlFiles(): Promise<{ path: string; content: string }[]> {
  const root = join(generatedDir, '..');
  const [[outputDir, target]] = Object.entries(config.generates) as [[string, Types.ConfiguredOutput]];
  // The CLI's loader sorts the schema; sorting here keeps the output identical and stable.
  const schemaAst = lexicographicSortSchema(buildSchema(await readFile(join(root, config.schema as string), 'utf8')));
  const operationsDir = join(root, 'specs/graphql/operations');
  const names = (await readdir(operationsDir)).filter((name) => name.endsWith('.graphql')).sort();
  const documents: Types.DocumentFile[] = await Promise.all(
    names.map(async (name) => {
      const location = join(operationsDir, name);
      // As the CLI's loader does: the printed document (no comments) is the source string.
      const document = parse(await readFile(location, 'utf8'));
      return { location: relative(root, location), document, rawSDL: print(document) };
    }),
  );
  const sections = await preset.buildGeneratesSection({
    baseOutputDir: outputDir,
    config: (target.config ?? {}) as Record<string, unknown>,
    presetConfig: (target.presetConfig ?? {}) as Record<string, unknown>,
    schema: getCachedDocumentNodeFromSchema(schemaAst),
    schemaAst,
    documents,
    plugins: [],
    pluginMap: {},
    pluginContext: {},
  });
  return Promise.all(
    sections.map(async (section) => ({ path: relative(generatedDir, join(root, section.filename)), content: await codegen(section) })),
  );
}
