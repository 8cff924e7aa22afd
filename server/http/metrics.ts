import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { MemoryTradingEngine } from '../engine/memoryEngine.ts';
import type { EngineFigures, EngineObserver, TradingEngine } from '../trading/engine.ts';

/**
 * Prometheus metrics (issue 28 point 9, docs/SCALING.md "Metrics"): METRICS_PORT serves
 * `GET /metrics` (text exposition format) on 127.0.0.1 only, on a listener of its own, so it is
 * never reachable through the public port or the load balancer in front of the gateways.
 *
 * - `rf_engine_commands_total{kind,result}`: commands by kind (place, cancel, edit, close, closeAll,
 *   tpsl; on ENGINE=memory every journaled command: market, book, periodic, post, follow, ...) and
 *   result (accepted, refused, unavailable, error);
 * - `rf_journal_write_seconds`, `rf_journal_fsync_seconds` (histograms of one positioned write and one
 *   fdatasync of the memory engine's file journal), `rf_journal_batch_records` (records per group
 *   commit), `rf_journal_batch_seconds` (a batch's write + sync);
 * - gauges read when scraped: `rf_engine_queue_depth` (commands taken and not answered),
 *   `rf_projector_lag_commands`, `rf_projector_lag_seconds`, `rf_engine_seq`,
 *   `rf_journal_durable_seq`, `rf_projector_seq`, `rf_snapshot_seq`, `rf_snapshot_age_seconds`;
 * - `rf_http_requests_total{method,route,status}` and `rf_http_request_duration_seconds{method,route}`
 *   (route: the route's pattern, never the raw URL, so the label set stays bounded);
 * - prom-client's default process metrics, event-loop delay among them (`nodejs_eventloop_lag_*`,
 *   from monitorEventLoopDelay), every series labelled `role` (all, engine, gateway).
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private engine: TradingEngine | undefined;
  private readonly commands: Counter<'kind' | 'result'>;
  private readonly journalWrite: Histogram;
  private readonly journalSync: Histogram;
  private readonly batchRecords: Histogram;
  private readonly batchSeconds: Histogram;
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpSeconds: Histogram<'method' | 'route'>;

  constructor(opts: { role: string }) {
    const r = this.registry;
    r.setDefaultLabels({ role: opts.role });
    collectDefaultMetrics({ register: r, eventLoopMonitoringPrecision: 10 });
    const ioBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
    this.commands = new Counter({ name: 'rf_engine_commands_total', help: 'Engine commands answered, by kind and result', labelNames: ['kind', 'result'], registers: [r] });
    this.journalWrite = new Histogram({ name: 'rf_journal_write_seconds', help: 'One positioned write of a journal batch', buckets: ioBuckets, registers: [r] });
    this.journalSync = new Histogram({ name: 'rf_journal_fsync_seconds', help: 'One fdatasync of the journal', buckets: ioBuckets, registers: [r] });
    this.batchSeconds = new Histogram({ name: 'rf_journal_batch_seconds', help: 'One group commit of the journal (write + sync)', buckets: ioBuckets, registers: [r] });
    this.batchRecords = new Histogram({ name: 'rf_journal_batch_records', help: 'Records per journal group commit', buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000], registers: [r] });
    this.httpRequests = new Counter({ name: 'rf_http_requests_total', help: 'HTTP requests answered, by route pattern and status', labelNames: ['method', 'route', 'status'], registers: [r] });
    this.httpSeconds = new Histogram({ name: 'rf_http_request_duration_seconds', help: 'HTTP request duration by route pattern', labelNames: ['method', 'route'], buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [r] });
    this.gauge('rf_engine_queue_depth', 'Engine commands taken and not answered yet', (f) => f.queueDepth);
  }

  /** A gauge read from the engine's figures when scraped. */
  private gauge(name: string, help: string, read: (f: EngineFigures) => number | undefined): void {
    const figures = (): EngineFigures | undefined => this.engine?.figures();
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        const f = figures();
        const v = f ? read(f) : undefined;
        if (v !== undefined) this.set(v);
      },
    });
  }

  /** The memory engine's gauges (registered only when it runs: the SQL engine has no journal, projector or snapshot). */
  private memoryGauges(): void {
    const gauge = this.gauge.bind(this);
    gauge('rf_engine_seq', 'Last applied command seq (ENGINE=memory)', (f) => f.seq);
    gauge('rf_journal_durable_seq', 'Last durable journal seq (ENGINE=memory)', (f) => f.durableSeq);
    gauge('rf_projector_seq', 'Last seq the projected tables hold (ENGINE=memory)', (f) => f.projectedSeq);
    gauge('rf_projector_lag_commands', 'Durable commands not yet written to the tables (ENGINE=memory)', (f) => f.projectorLagCommands);
    gauge('rf_projector_lag_seconds', 'Age of the oldest durable command not yet projected, in command time (ENGINE=memory)', (f) => (f.projectorLagMs === undefined ? undefined : f.projectorLagMs / 1000));
    gauge('rf_snapshot_seq', 'Seq of the last engine snapshot (ENGINE=memory)', (f) => f.snapshotSeq);
    gauge('rf_snapshot_age_seconds', 'Wall-clock age of the last engine snapshot (ENGINE=memory)', (f) => (f.snapshotAgeMs === undefined ? undefined : f.snapshotAgeMs / 1000));
  }

  /** Follows `engine` (its commands, journal and gauges); a gateway's remote engine reports only its queue. */
  watchEngine(engine: TradingEngine | undefined): void {
    if (this.engine) throw new Error('metrics: already watching an engine');
    this.engine = engine;
    if (!engine) return;
    if (engine instanceof MemoryTradingEngine) this.memoryGauges();
    const observer: EngineObserver = {
      command: (kind, result) => this.commands.inc({ kind, result }),
      journalBatch: (b) => {
        this.batchRecords.observe(b.records);
        this.batchSeconds.observe(b.ms / 1000);
      },
      journalWrite: (ms) => this.journalWrite.observe(ms / 1000),
      journalSync: (ms) => this.journalSync.observe(ms / 1000),
    };
    engine.observer = observer;
  }

  /** Counts every answered request of `app` by route pattern and status (add before the app is ready). */
  instrument(app: FastifyInstance): void {
    app.addHook('onResponse', async (req, reply) => {
      const route = req.routeOptions.url ?? 'unmatched';
      const method = req.method;
      this.httpRequests.inc({ method, route, status: String(reply.statusCode) });
      this.httpSeconds.observe({ method, route }, reply.elapsedTime / 1000);
    });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}

/**
 * Serves `GET /metrics` on `host:port` (127.0.0.1 unless told otherwise): a plain node:http listener,
 * not the app's, so no app route, hook or balancer path leads to it. Anything else answers 404.
 */
export async function startMetricsServer(metrics: ServerMetrics, port: number, host = '127.0.0.1'): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.text().then(
      (body) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${String(err)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  server.unref();
  const bound = (server.address() as AddressInfo).port;
  return { server, port: bound, close: () => new Promise<void>((r) => server.close(() => r())) };
}
