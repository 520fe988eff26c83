/**
 * A constant-rate (open-loop) load generator, for latency targets stated at a request rate.
 *
 * autocannon's `overallRate` lets every connection send its whole per-second quota back to back at the start of
 * each second and then idle, so "300 requests/s" arrives as a 300-request burst once a second and the latency it
 * reports is mostly the queue inside that burst. Here request i is due at start + i / rate, whatever happened to
 * the earlier ones, and its latency is measured from when it was due, not from when it went out (wrk2's
 * correction for coordinated omission): a stalled server shows up as latency instead of as fewer requests.
 *
 * The client is a few lines over raw keep-alive sockets with the requests serialized up front, because at
 * 10,000 requests/s a general HTTP client's own garbage and event-loop stalls on a 2-core machine were larger
 * than the latencies being measured. It reads responses framed by Content-Length only (what our services send).
 */
import { connect, type Socket } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";

export interface OpenLoopRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface OpenLoopOptions {
  /** http://host:port */
  origin: string;
  /** Requests per second, spread evenly. */
  rate: number;
  durationSeconds: number;
  /** Keep-alive connections; a request due while all are busy waits for one, and that wait is counted. */
  connections: number;
  /** The i-th request to send, due at `dueAt` (performance.now() clock). */
  request: (index: number, dueAt: number) => OpenLoopRequest;
}

export interface OpenLoopResult {
  sent: number;
  completed: number;
  /** Completed requests per second over the run. */
  achievedRate: number;
  statusCounts: Record<string, number>;
  errors: number;
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number };
  /** The generator's own event-loop delay: when its p99 nears the latencies above, they measure the client. */
  clientLoopDelayMs: { p99: number; max: number };
  /**
   * How late the generator's own loop handled requests after they were due, whether a connection was free or not:
   * the share of the latencies above that is the client's, not the server's.
   */
  tickLagMs: { p50: number; p99: number; max: number };
}

/** Nearest-rank percentile of an ascending list. */
export function percentileOf(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Requests are serialized once per request object: a bench that hands out the same objects pays for it once. */
const serialized = new WeakMap<OpenLoopRequest, Buffer>();

function serializeOnce(host: string, request: OpenLoopRequest): Buffer {
  let bytes = serialized.get(request);
  if (!bytes) {
    bytes = serialize(host, request);
    serialized.set(request, bytes);
  }
  return bytes;
}

function serialize(host: string, request: OpenLoopRequest): Buffer {
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers: Record<string, string> = { host, connection: "keep-alive", ...request.headers };
  if (body) headers["content-length"] = String(body.length);
  const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;
  return body ? Buffer.concat([Buffer.from(head, "latin1"), body]) : Buffer.from(head, "latin1");
}

/** One keep-alive connection carrying one request at a time. */
class Connection {
  private buffered: Buffer = Buffer.alloc(0);
  private current: { dueAt: number; done: (status: number) => void } | undefined;
  closed = false;
  readonly socket: Socket;

  constructor(
    port: number,
    host: string,
    private readonly onIdle: (connection: Connection) => void,
    onLost: () => void,
  ) {
    this.socket = connect({ port, host, noDelay: true });
    this.socket.on("data", (chunk) => this.receive(chunk));
    this.socket.on("error", () => {});
    // A request cut off with its connection is an error; the connection is not replaced.
    this.socket.on("close", () => {
      this.closed = true;
      if (this.current) onLost();
      this.current = undefined;
    });
  }

  send(bytes: Buffer, done: (status: number) => void, dueAt: number): void {
    this.current = { dueAt, done };
    this.socket.write(bytes);
  }

  private receive(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const headEnd = this.buffered.indexOf("\r\n\r\n");
    if (headEnd < 0) return;
    const head = this.buffered.toString("latin1", 0, headEnd);
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) throw new Error("chunked responses are not supported by the load generator");
    if (this.buffered.length < headEnd + 4 + length) return;
    this.buffered = this.buffered.subarray(headEnd + 4 + length);
    const finished = this.current!;
    this.current = undefined;
    finished.done(Number(head.slice(9, 12)));
    this.onIdle(this);
  }
}

export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const origin = new URL(options.origin);
  const total = Math.round(options.rate * options.durationSeconds);
  const intervalMs = 1000 / options.rate;
  const latencies = new Float64Array(total);
  const tickLags = new Float64Array(total);
  const statusCounts: Record<string, number> = {};
  // Requests due while every connection was busy, oldest first; a moving head, since shift() on a long queue copies it.
  const waiting: Array<{ index: number; dueAt: number }> = [];
  let waitingHead = 0;
  let completed = 0;
  let errors = 0;
  let sent = 0;
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));

  const dispatch = (connection: Connection, index: number, dueAt: number): void => {
    connection.send(
      serializeOnce(origin.host, options.request(index, dueAt)),
      (status) => {
        latencies[completed++] = performance.now() - dueAt;
        statusCounts[status] = (statusCounts[status] ?? 0) + 1;
        if (completed + errors === total) finish();
      },
      dueAt,
    );
  };
  const idle: Connection[] = [];
  const onIdle = (connection: Connection): void => {
    const next = waitingHead < waiting.length ? waiting[waitingHead++] : undefined;
    if (waitingHead === waiting.length) waiting.length = waitingHead = 0;
    if (next) dispatch(connection, next.index, next.dueAt);
    else if (connection.closed) return;
    else idle.push(connection);
  };
  const connections = Array.from(
    { length: options.connections },
    () =>
      new Connection(Number(origin.port), origin.hostname, onIdle, () => {
        errors++;
        if (completed + errors === total) finish();
      }),
  );
  await Promise.all(connections.map((c) => new Promise((resolve) => c.socket.once("connect", resolve))));
  idle.push(...connections);

  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const start = performance.now();
  // Timers fire about once a millisecond at best: each tick sends every request that has come due.
  const tick = (): void => {
    const now = performance.now();
    while (sent < total && start + sent * intervalMs <= now) {
      const dueAt = start + sent * intervalMs;
      tickLags[sent] = now - dueAt;
      // First in, first out, so that every connection stays in use and none reaches the server's idle timeout.
      let connection = idle.shift();
      while (connection?.closed) connection = idle.shift();
      if (connection) dispatch(connection, sent, dueAt);
      else waiting.push({ index: sent, dueAt });
      sent++;
    }
    if (sent < total) setTimeout(tick, Math.max(0, start + sent * intervalMs - performance.now()));
  };
  tick();
  // Requests stuck behind lost connections would never finish: give up a while after the last one was due.
  const giveUp = setTimeout(finish, options.durationSeconds * 1000 + 30_000);
  await finished;
  clearTimeout(giveUp);
  const elapsedSeconds = (performance.now() - start) / 1000;
  loopDelay.disable();
  for (const connection of connections) connection.socket.destroy();

  const sorted = Array.from(latencies.subarray(0, completed)).sort((a, b) => a - b);
  const lags = Array.from(tickLags.subarray(0, sent)).sort((a, b) => a - b);
  const ms = (value: number) => Number(value.toFixed(2));
  return {
    sent,
    completed,
    achievedRate: Math.round(completed / elapsedSeconds),
    statusCounts,
    errors,
    latencyMs: {
      p50: ms(percentileOf(sorted, 50)),
      p90: ms(percentileOf(sorted, 90)),
      p99: ms(percentileOf(sorted, 99)),
      p999: ms(percentileOf(sorted, 99.9)),
      max: ms(sorted.at(-1) ?? NaN),
    },
    clientLoopDelayMs: { p99: ms(loopDelay.percentile(99) / 1e6), max: ms(loopDelay.max / 1e6) },
    tickLagMs: { p50: ms(percentileOf(lags, 50)), p99: ms(percentileOf(lags, 99)), max: ms(lags.at(-1) ?? NaN) },
  };
}
