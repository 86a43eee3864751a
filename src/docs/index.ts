// The documentation site builder's public entry: what `compute-contract/docs` and the mock's /docs route use.
export { buildSite, writeSite, type Site, type SiteFile, type SiteOptions } from './site.js';
export type { TryItConfig } from './try-it.js';
