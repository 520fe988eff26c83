/**
 * Does storing large values in the embedded database stall the other apps of the process?
 * A platform process (a child of this script) serves GET /health on a real listener and, on cue, stores a stream
 * of 10 MiB bytea values one after another in the embedded database; this script drives /health at a constant rate
 * (bench/lib/open-loop.ts) first while the process is idle, then during the stream, and reports the latencies.
 *   bash scripts/pnpm.sh exec tsx bench/storage/embedded-stall.ts [socket|in-process]
 * socket (default): createEmbeddedDatabase, PGlite in its own process behind the wire protocol (what npm start runs).
 * in-process: PGlite on the platform process's own event loop (the design before it).
 * Env: BENCH_RATE (default 200 requests/s), BENCH_SECONDS (default 15 per phase), BENCH_VALUE_MIB (default 10),
 * BENCH_ISOLATE=1 (the platform process alone on core 0; the database process and this script on core 1).
 * Reports /health latency in both phases and the CPU that each stored value cost the platform process and the
 * database process (read from /proc, whatever else the machine did).
 */
import { fork, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import Fastify from "fastify";
import { createEmbeddedDatabase } from "@apiplat/storage";
import { canPin } from "../lib/cores.js";
import { runOpenLoop } from "../lib/open-loop.js";
import { cpuSeconds, descendantsOf, processTable } from "../lib/proc-cpu.js";

type Mode = "socket" | "in-process";
type ToServer = { type: "start-stream" } | { type: "stop-stream" };
type FromServer =
  | { type: "listening"; port: number }
  | { type: "stream-stopped"; values: number; seconds: number; loopDelayMs: { p50: number; p99: number; max: number } };

const rate = Number(process.env.BENCH_RATE ?? 200);
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const valueBytes = Number(process.env.BENCH_VALUE_MIB ?? 10) * 1024 * 1024;
const isolate = process.env.BENCH_ISOLATE === "1" && canPin;

const pin = (pid: number, cores: string) => spawnSync("taskset", ["-a", "-p", "-c", cores, String(pid)], { stdio: "ignore" });
const cpuOf = (pids: number[]) => pids.reduce((total, pid) => total + cpuSeconds(pid), 0);

/** The query function of the chosen embedded database, on a fresh data directory. */
async function openStore(mode: Mode, dir: string): Promise<(sql: string, params?: unknown[]) => Promise<unknown>> {
  if (mode === "socket") {
    const db = await createEmbeddedDatabase(dir);
    return (sql, params) => db.query(sql, params);
  }
  const storageRequire = createRequire(new URL("../../packages/storage/package.json", import.meta.url));
  const { PGlite } = (await import(pathToFileURL(storageRequire.resolve("@electric-sql/pglite")).href)) as {
    PGlite: { create(dir: string): Promise<{ query(sql: string, params?: unknown[]): Promise<unknown> }> };
  };
  const db = await PGlite.create(dir);
  return (sql, params) => db.query(sql, params);
}

async function runPlatformProcess(mode: Mode): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-embedded-"));
  const query = await openStore(mode, dir);
  await query("CREATE TABLE captures (id serial PRIMARY KEY, body bytea NOT NULL)");
  const app = Fastify({ logger: false });
  app.get("/health", async () => ({ status: "ok" }));
  await app.listen({ port: 0, host: "127.0.0.1" });
  const send = (message: FromServer) => process.send!(message);
  send({ type: "listening", port: (app.server.address() as { port: number }).port });

  let streaming = false;
  process.on("message", async (message: ToServer) => {
    if (message.type === "stop-stream") {
      streaming = false;
      return;
    }
    streaming = true;
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const started = performance.now();
    let values = 0;
    while (streaming) {
      await query("INSERT INTO captures (body) VALUES ($1)", [Buffer.alloc(valueBytes, values % 256)]);
      await query("DELETE FROM captures");
      values += 1;
      // Between values the loop turns, as it does between the requests that carry them in a service.
      await new Promise((resolve) => setImmediate(resolve));
    }
    loopDelay.disable();
    const ms = (ns: number) => Number((ns / 1e6).toFixed(1));
    const loopDelayMs = { p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) };
    send({ type: "stream-stopped", values, seconds: (performance.now() - started) / 1000, loopDelayMs });
    await app.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
}

async function drive(mode: Mode): Promise<void> {
  const child = fork(process.argv[1], ["platform", mode], { execArgv: process.execArgv });
  const next = () => new Promise<FromServer>((resolve) => child.once("message", resolve));
  const listening = await next();
  if (listening.type !== "listening") throw new Error("the platform process did not start");
  const databasePids = descendantsOf(processTable(), child.pid!);
  if (isolate) {
    pin(child.pid!, "0");
    for (const pid of [...databasePids, process.pid]) pin(pid, "1");
  }
  const load = { origin: `http://127.0.0.1:${listening.port}`, rate, durationSeconds: seconds, connections: 8, request: () => ({ method: "GET" as const, path: "/health" }) };

  await runOpenLoop({ ...load, durationSeconds: 2 }); // warm-up
  const idle = await runOpenLoop(load);
  const cpuBefore = { platform: cpuSeconds(child.pid!), database: cpuOf(databasePids) };
  child.send({ type: "start-stream" } satisfies ToServer);
  const busy = await runOpenLoop(load);
  const stopped = next();
  child.send({ type: "stop-stream" } satisfies ToServer);
  const stream = await stopped;
  const cpuUsed = { platform: cpuSeconds(child.pid!) - cpuBefore.platform, database: cpuOf(databasePids) - cpuBefore.database };
  if (stream.type !== "stream-stopped") throw new Error("the platform process did not report its stream");
  const phase = (result: typeof idle) => ({ requests: result.completed, errors: result.errors, latency_ms: result.latencyMs, client_tick_lag_ms: result.tickLagMs });
  console.log(
    JSON.stringify(
      {
        mode,
        isolated: isolate,
        health_rate_per_s: rate,
        phase_seconds: seconds,
        value_mib: valueBytes / 1024 / 1024,
        idle: phase(idle),
        during_stream: phase(busy),
        stream: {
          values_stored: stream.values,
          platform_event_loop_delay_ms: stream.loopDelayMs,
          mib_per_s: Number(((stream.values * valueBytes) / 1024 / 1024 / stream.seconds).toFixed(1)),
          cpu_ms_per_value: {
            // Serving /health at the driven rate is part of it.
            platform_process: Math.round((cpuUsed.platform * 1000) / stream.values),
            database_process: mode === "socket" ? Math.round((cpuUsed.database * 1000) / stream.values) : "(the platform process)",
          },
        },
      },
      null,
      2,
    ),
  );
}

if (process.argv[2] === "platform") await runPlatformProcess(process.argv[3] as Mode);
else await drive((process.argv[2] as Mode | undefined) ?? "socket");
