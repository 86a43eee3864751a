// Official-client interop, the agents' client: @runpod/mcp-server 4.0.0 (RunPod's MCP server, run unmodified
// over stdio) against the reference mock, with RUNPOD_API_BASE_URL, RUNPOD_SERVERLESS_API_URL,
// RUNPOD_PUBLIC_GRAPHQL_URL, RUNPOD_AUTHED_GRAPHQL_URL and RUNPOD_API_KEY pointing at it. Every tool it
// lists is called in create → read → update → act → delete order and each answer judged against the mock's
// state. A tool the plan does not cover (a later server version's new tool) fails the coverage test by name.
// The whole conversation goes through the validating proxy: its verdict on every exchange is the last test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpWire } from './mcp/harness.js';
import { SETUP_STEPS, type Ids } from './mcp/steps-setup.js';
import { USE_STEPS } from './mcp/steps-use.js';

const STEPS = [...SETUP_STEPS, ...USE_STEPS];

describe('@runpod/mcp-server 4.0.0 over stdio against the mock', () => {
  let wire: McpWire;
  let tools: string[];
  const ids: Ids = {};
  beforeAll(async () => {
    wire = await McpWire.start();
    tools = await wire.tools();
  }, 30_000);
  afterAll(() => wire?.close());

  it('every tool the server lists is covered by a step (a new tool fails here by name)', () => {
    const covered = new Set(STEPS.map((s) => s.tool));
    expect(tools.filter((t) => !covered.has(t)), 'tools without a wire step').toEqual([]);
    expect([...covered].filter((t) => !tools.includes(t)), 'steps for tools the server no longer lists').toEqual([]);
    expect(tools.length).toBe(68);
  });

  // The steps build on each other (ids saved by earlier ones), so they run in order, one test each.
  for (const step of STEPS) {
    it(`${step.tool}: ${step.what}`, () => step.run(wire, ids), 60_000);
  }

  it('the validating proxy judged every exchange: 0 violations; the keyless public queries are GQL-PUBLIC-001, not GQL-AUTH-002', () => {
    const report = wire.proxy.report();
    expect(report.violations.map((v) => `${v.ruleId} ${v.operationId}: ${v.message}`)).toEqual([]);
    expect(report.totals.exchanges).toBeGreaterThan(70);
    expect(report.totals.unmatched).toBe(0);
    // get-capacity (gpuTypes), list-hub-repos and deploy-hub-repo (listings), list-public-endpoints (allAiApiPublicConfigs).
    expect(report.rules.find((r) => r.ruleId === 'GQL-PUBLIC-001')?.checked).toBeGreaterThanOrEqual(4);
  });
});
