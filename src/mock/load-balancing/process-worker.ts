// A load-balancing worker that is an HTTP server process (`--worker NAME=exec:COMMAND` or `NAME=FILE.py`):
// started with PORT (a free port the mock picks; PORT_HEALTH is the same port, RunPod's default) and the
// endpoint's env, it is initialising until GET /ping answers 200 (204: still initialising; another status
// after it was up: unhealthy, out of the routing pool). Requests are streamed to it and its answers back.
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { sendError } from '../http.js';
import { launchWorkerProcess, type ExitInfo, type WorkerProcess } from '../worker-processes/launcher.js';
import { loadBalancingFacts } from './facts.js';
import { answerHeaders, forwardedRequestHeaders } from './forward-limits.js';
import { hasBody, relay } from './relay.js';
import type { ForwardedRequest, LbWorker, LbWorkerState } from './worker.js';

const facts = loadBalancingFacts.directAccess;

/** Health polling (real time: the process runs in real time): while starting, then while serving. */
export const PING_STARTING_MS = 100;
export const PING_READY_MS = 1_000;
/** One /ping answer is awaited this long; longer counts as no answer. */
const PING_TIMEOUT_MS = 2_000;

export interface ProcessWorkerOptions {
  id: string;
  endpointId: string;
  command: string;
  env: Record<string, string>;
  maxPayloadBytes: number;
  /** Delay before the process starts (back-off after the endpoint's workers crashed at start: RestartBackoff). */
  startDelayMs: number;
  /** One line for the mock's stderr (a worker that exited or never became ready). */
  report(line: string): void;
  /** The process exited on its own (not stopped by the pool); true: report it (the first start failure of a run). */
  onExit(info: ExitInfo): boolean;
}

/** A free loopback port (bound and released: the worker binds it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export class ProcessWorker implements LbWorker {
  state: LbWorkerState = 'initializing';
  inFlight = 0;
  onState?: (state: LbWorkerState) => void;
  private port = 0;
  private process: WorkerProcess | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256 });
  private everReady = false;
  private reported = false;
  private lastStderr: string | undefined;

  constructor(private readonly options: ProcessWorkerOptions) {
    const start = setTimeout(() => void this.start(), options.startDelayMs);
    start.unref();
  }

  private isStopped(): boolean {
    return this.state === 'stopped';
  }

  get id(): string {
    return this.options.id;
  }

  /** The worker's own address (PORT on loopback), once it started: what a direct call would use. */
  get url(): string | undefined {
    return this.port === 0 ? undefined : `http://127.0.0.1:${this.port}`;
  }

  private async start(): Promise<void> {
    if (this.isStopped()) return;
    this.port = await freePort();
    if (this.isStopped()) return;
    const port = String(this.port);
    this.process = launchWorkerProcess({
      command: this.options.command,
      env: { ...this.options.env, PORT: port, PORT_HEALTH: port, RUNPOD_ENDPOINT_ID: this.options.endpointId, RUNPOD_POD_ID: this.options.id },
      onLine: (stream, line) => {
        if (stream === 'stderr' && line.trim() !== '') this.lastStderr = line;
      },
      onExit: (info) => {
        const wasStopped = this.isStopped();
        this.setState('stopped');
        clearTimeout(this.pingTimer);
        this.agent.destroy();
        if (wasStopped) return;
        const report = this.options.onExit(info);
        if (report && !this.everReady) this.reportOnce(`exited (${info.signal ?? `code ${info.code}`}) before GET /ping answered 200`);
      },
    });
    this.schedulePing(0);
  }

  /** A worker that never became ready, said once, with its last stderr line. */
  reportNeverReady(waitedMs: number): void {
    if (this.state === 'initializing') this.reportOnce(`did not answer GET /ping with 200 within ${waitedMs / 1000} s`);
  }

  private reportOnce(what: string): void {
    if (this.reported) return;
    this.reported = true;
    const last = this.lastStderr;
    this.options.report(`[mock] load-balancing worker ${this.options.id} (endpoint ${this.options.endpointId}, ${this.options.command}) ${what}${last ? `; its last stderr line: ${last}` : '; it wrote nothing to stderr'}`);
  }

  private setState(state: LbWorkerState): void {
    if (this.state === state || this.state === 'stopped') return;
    this.state = state;
    if (state === 'ready') this.everReady = true;
    this.onState?.(state);
  }

  private schedulePing(ms: number): void {
    this.pingTimer = setTimeout(() => void this.ping(), ms);
    this.pingTimer.unref();
  }

  private async ping(): Promise<void> {
    if (this.isStopped()) return;
    const status = await new Promise<number | undefined>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port: this.port, path: '/ping', method: 'GET', agent: false, timeout: PING_TIMEOUT_MS }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(undefined));
      req.end();
    });
    if (this.isStopped()) return;
    if (status === 200) this.setState('ready');
    else if (status === 204) this.setState(this.everReady ? 'unhealthy' : 'initializing');
    // No answer while starting: the server is not listening yet. Any other answer, or none once it served: unhealthy.
    else if (status !== undefined || this.everReady) this.setState('unhealthy');
    if (this.state === 'unhealthy') return;
    this.schedulePing(this.state === 'ready' ? PING_READY_MS : PING_STARTING_MS);
  }

  serve({ req, res, path, search }: ForwardedRequest): Promise<void> {
    const max = this.options.maxPayloadBytes;
    return new Promise<void>((resolve) => {
      let tooLarge = false;
      let settled = false;
      const done = () => {
        if (settled) return;
        settled = true;
        resolve();
      };
      const upstream = httpRequest({
        host: '127.0.0.1', port: this.port, method: req.method, path: search === '' ? path : `${path}?${search}`,
        headers: forwardedRequestHeaders(req.headers), agent: this.agent,
      });
      upstream.on('response', (answer) => {
        const headers = answerHeaders(answer.rawHeaders);
        res.writeHead(answer.statusCode ?? facts.unreachableWorkerStatus, headers);
        // An answer over the bound, or one the worker cut midway: the connection is cut, the mock stays up.
        relay(answer, res, max, headers['content-length'], () => res.destroy());
        answer.on('error', () => res.destroy());
        answer.once('close', () => {
          if (!answer.complete) res.destroy();
        });
      });
      upstream.on('error', () => {
        req.unpipe(upstream);
        req.resume();
        if (!res.headersSent) {
          if (tooLarge) sendError(res, facts.forwarding.payloadTooLargeStatus, `request body exceeds ${max} bytes`);
          else sendError(res, facts.unreachableWorkerStatus, `the worker ${this.options.id} closed the connection before answering`);
        } else res.destroy();
        done();
      });
      res.once('finish', done);
      res.once('close', () => {
        if (!res.writableFinished) upstream.destroy();
        done();
      });
      if (!hasBody(req)) return void upstream.end();
      relay(req, upstream, max, req.headers['content-length'], () => {
        tooLarge = true;
        upstream.destroy();
      });
    });
  }

  async stop(): Promise<void> {
    const was = this.state;
    this.state = 'stopped';
    if (was !== 'stopped') this.onState?.('stopped');
    clearTimeout(this.pingTimer);
    this.agent.destroy();
    await this.process?.stop();
  }
}
