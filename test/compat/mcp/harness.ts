// The official MCP server (@runpod/mcp-server, run unmodified) against the reference mock: the mock on
// 127.0.0.1 with a virtual clock that a ticker moves on (jobs, worker boots, builds progress while a tool
// waits), the MCP server spawned over stdio with only the four base-URL variables and the key pointing at
// it, and a client of the official MCP SDK calling its tools. All its traffic goes through the validating
// proxy in front of the mock, so every exchange is also judged against the specs (proxy.report()).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startMock, type RunningMock } from '../../../src/mock/index.js';
import { startProxy, type RunningProxy } from '../../../src/proxy/index.js';

export const MCP_KEY = 'mcp-wire-key-0123456789';
/** Virtual ms the ticker adds every TICK_REAL_MS of real time while the test runs (50x). */
const TICK_VIRTUAL_MS = 250;
const TICK_REAL_MS = 5;

export interface ToolAnswer {
  ok: boolean;
  /** The tool's JSON payload (on an error: {error, detail?, hint}). */
  body: any;
}

export class McpWire {
  private constructor(readonly mock: RunningMock, readonly proxy: RunningProxy, readonly client: Client, private readonly ticker: ReturnType<typeof setInterval>) {}

  static async start(): Promise<McpWire> {
    const mock = await startMock({
      host: '127.0.0.1', port: 0, clock: 'virtual', control: true, rateLimits: false, templateDeleteDelayMs: 0,
      apiKeys: [{ key: MCP_KEY, scopes: ['read', 'write', 'jobs', 'graphql'] }],
    });
    const proxy = await startProxy({ upstream: mock.url, port: 0 });
    const graphqlUrl = `${proxy.url}${new URL(mock.graphqlUrl).pathname}`;
    const ticker = setInterval(() => mock.clock.advance(TICK_VIRTUAL_MS), TICK_REAL_MS);
    const entry = join(dirname(createRequire(import.meta.url).resolve('@runpod/mcp-server/package.json')), 'dist/stdio.mjs');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [entry],
      // Only these (plus the SDK's minimal default environment: PATH, HOME …): no analytics key, nothing else.
      env: {
        RUNPOD_API_KEY: MCP_KEY,
        RUNPOD_API_BASE_URL: proxy.url,
        RUNPOD_SERVERLESS_API_URL: `${proxy.url}/v2`,
        RUNPOD_PUBLIC_GRAPHQL_URL: graphqlUrl,
        RUNPOD_AUTHED_GRAPHQL_URL: graphqlUrl,
      },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'compute-contract-wire-test', version: '1.0.0' });
    try {
      await client.connect(transport);
    } catch (error) {
      clearInterval(ticker);
      await proxy.close();
      await mock.close();
      throw error;
    }
    return new McpWire(mock, proxy, client, ticker);
  }

  async tools(): Promise<string[]> {
    return (await this.client.listTools()).tools.map((t) => t.name);
  }

  async call(name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
    const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
    const text = (result.content as { type: string; text?: string }[]).find((c) => c.type === 'text')?.text ?? 'null';
    return { ok: result.isError !== true, body: JSON.parse(text) };
  }

  /** Simulates a push to the endpoint's repository (control API): a build starts. */
  async push(endpointId: string, body: Record<string, unknown> = {}): Promise<any> {
    const res = await fetch(`${this.mock.url}/__control/endpoints/${endpointId}/builds`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`simulated push: ${res.status} ${await res.text()}`);
    return res.json();
  }

  /** Waits (real time, bounded) until `probe` answers something defined. */
  async until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async close(): Promise<void> {
    clearInterval(this.ticker);
    await this.client.close().catch(() => undefined);
    await this.proxy.close();
    await this.mock.close();
  }
}
