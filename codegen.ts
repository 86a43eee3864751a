// graphql-codegen config. scripts/generators/graphql.ts runs its client preset through @graphql-codegen/core and writes the files itself
// (with a DO-NOT-EDIT banner), so nothing here may depend on codegen writing to disk or running hooks.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'specs/graphql/schema.graphql',
  documents: ['specs/graphql/operations/*.graphql'],
  generates: {
    'generated/graphql/': {
      preset: 'client',
      config: {
        // Plain query strings: graphql-request sends them as-is, no graphql-tag AST at runtime.
        documentMode: 'string',
        // Every custom scalar must be mapped, so no scalar degrades to `any`.
        strictScalars: true,
        scalars: { Void: 'null', PortList: 'string', ID: 'string' },
        useTypeImports: true,
        enumsAsTypes: true,
        skipTypename: true,
        // NodeNext: relative imports between the generated files need the .js extension.
        importExtension: '.js',
      },
      presetConfig: {
        fragmentMasking: false,
      },
    },
  },
  silent: true,
};

export default config;
