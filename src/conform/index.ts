// Public entry of the conformance runner: run a suite of checks against a target (or the embedded mock),
// write the reports (JUnit XML, Markdown, HTML, JSON), and scan them for the secrets the run sent. The
// checks themselves (contract-tests/) come in as an argument; src/entries/conform.ts binds them.
export { loadCatalogue } from '../contract/catalogue.js';
export { defaultSettings, runConformance, writeReports, type ConformanceOptions, type ConformanceResult } from './run.js';
export { measureMutationScore, type MutationScore } from './mutation.js';
export { startEmbeddedTarget, readOptions, remoteTarget, DEFAULT_SEED, type TargetConfig, type RunSettings } from './target.js';
export type { CheckSuite } from './registry.js';
export type { PreflightProbe, RuleResult, RunSummary, SkipKind, Tier } from './types.js';
export { levelOf, RULE_LEVELS, type RuleLevel } from '../contract/levels.js';
export { exitCodeOf, countsTowardVerdict } from './verdict.js';
