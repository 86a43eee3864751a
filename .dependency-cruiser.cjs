// The layering of src/ and contract-tests/, written once (CONTRIBUTING.md, "Architecture"). `npm run lint`
// runs it: an import a layer may not make, an import of another tool's internals, or an import cycle fails.
//
// LAYERS: each folder and the folders it may import (besides itself and generated/). A folder sees only what
// is listed, never anything above it. src/cli/, src/entries/ and src/index.ts are composition roots: they
// see everything.
const LAYERS = {
  'src/contract': [],
  'src/validation': ['src/contract'],
  'src/migration': ['src/contract'],
  'src/clients': ['src/validation', 'src/contract'],
  'src/docs': ['src/migration', 'src/contract'],
  'src/agreement': ['src/validation', 'src/contract'],
  'src/mock': ['src/docs', 'src/migration', 'src/validation', 'src/contract'],
  'src/proxy': ['src/validation', 'src/contract'],
  'src/conform': ['src/mock', 'src/migration', 'src/validation', 'src/contract'],
  'src/pact': ['src/conform', 'src/mock', 'src/clients', 'src/validation', 'src/contract'],
  // The checks: written with the runner's check kit (registry, context, http, receiver), they may use any tool.
  'contract-tests': ['src/conform', 'src/pact', 'src/agreement', 'src/mock', 'src/clients', 'src/migration', 'src/validation', 'src/contract'],
};

// A tool that needs another tool goes through its public entry (these modules), never its internals.
// validation has two more entries: surface-loader.ts (one surface's validators, loaded lazily: the clients) and
// graphql-limits.ts (a GraphQL document measured against the stated operation limits: the mock, the proxy).
const ENTRIES = {
  'src/validation': ['index.ts', 'surface-loader.ts', 'graphql-limits.ts'],
  'src/migration': ['index.ts'],
  'src/clients': ['index.ts', 'rest-v2/index.ts'],
  'src/docs': ['index.ts'],
  'src/agreement': ['index.ts'],
  'src/mock': ['index.ts'],
  'src/conform': ['index.ts'],
};
const TOOLS = ['src/validation', 'src/migration', 'src/clients', 'src/docs', 'src/agreement', 'src/mock', 'src/proxy', 'src/conform', 'src/pact'];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const anyOf = (folders) => `^(${folders.map(escape).join('|')})/`;
const SEEN = ['src', 'contract-tests'];

const layerRules = Object.entries(LAYERS).map(([folder, allowed]) => ({
  name: `layer:${folder}`,
  comment: `${folder}/ may import ${allowed.length ? allowed.join(', ') : 'nothing of the tools'} (and generated/) only`,
  severity: 'error',
  from: { path: `^${escape(folder)}/` },
  to: { path: anyOf(SEEN), pathNot: anyOf([folder, ...allowed]) },
}));

const entryRules = Object.entries(ENTRIES).map(([tool, entries]) => ({
  name: `entry:${tool}`,
  comment: `another tool imports ${tool}/ through ${entries.join(' or ')} only`,
  severity: 'error',
  from: { path: anyOf(TOOLS.filter((other) => other !== tool)) },
  to: { path: `^${escape(tool)}/`, pathNot: `^${escape(tool)}/(${entries.map(escape).join('|')})$` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import cycle, type-only imports included (CONTRIBUTING.md lists none kept)',
      severity: 'error',
      from: { path: anyOf(SEEN) },
      to: { circular: true },
    },
    {
      name: 'no-up-from-contract',
      comment: 'src/contract/ is the ground floor: it imports no tool, no composition root, no check',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^(src|contract-tests)/', pathNot: '^src/contract/' },
    },
    ...layerRules,
    ...entryRules,
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['(^|/)node_modules/', '\\.test\\.ts$', '^contract-tests/vitest\\.config\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
