// `compute-contract/docs`: the offline documentation site, built from the specs and the package's Markdown pages.
export { buildSite, writeSite, type Site, type SiteFile, type SiteOptions } from '../docs/index.js';
