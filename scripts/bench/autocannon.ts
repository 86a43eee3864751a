// autocannon ships no type declarations; this is the slice the bench scripts use.
import { createRequire } from 'node:module';

export interface AutocannonResult {
  non2xx: number;
  errors: number;
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
}

export const autocannon = createRequire(import.meta.url)('autocannon') as (options: {
  url: string; connections: number; duration: number; headers: Record<string, string>; method?: string; body?: string;
}) => Promise<AutocannonResult>;
