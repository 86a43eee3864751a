// The slice of @redocly/openapi-core this repository calls (bundling the specs; the specs-lint test's lint),
// typed here. Its own declarations are generated from JSON Schemas (@redocly/config, 65k lines): relating an
// argument or an awaited result to them cost the type check ~9 s of CPU in every `npm test` and `tsc`, for
// four calls whose shapes are these.
import * as openapiCore from '@redocly/openapi-core';

export interface ProblemLocation {
  source: { absoluteRef: string };
  pointer?: string;
}

export interface NormalizedProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: ProblemLocation[];
}

/** A loaded redocly.yaml: the APIs it names and the lint configuration of each. */
export interface RedoclyConfig {
  resolvedConfig: { apis?: Record<string, { root: string } | undefined> };
  forAlias(alias: string): unknown;
}

interface OpenapiCore {
  createConfig(config: Record<string, never>): Promise<unknown>;
  bundle(options: { ref: string; config: unknown }): Promise<{ bundle: { parsed: unknown }; problems: NormalizedProblem[] }>;
  loadConfig(options: { configPath: string }): Promise<RedoclyConfig>;
  lint(options: { ref: string; config: unknown }): Promise<NormalizedProblem[]>;
}

export const redocly = openapiCore as unknown as OpenapiCore;
