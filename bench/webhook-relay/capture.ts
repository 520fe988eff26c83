/**
 * Capture throughput: POSTs of a 1 KiB JSON body into one inbox, as fast as autocannon can send them,
 * against a service process on real PostgreSQL and Redis.
 *   bash scripts/pnpm.sh exec tsx bench/webhook-relay/capture.ts
 * Env: BENCH_CONNECTIONS (default 50), BENCH_SECONDS (default 20), BENCH_BATCH_MAX (the service's
 * WEBHOOK_RELAY_CAPTURE_BATCH_MAX; 1 turns batching off), DATABASE_URL, REDIS_URL.
 */
import { autocannon, BASE, cpuSeconds, createInbox, ensureDatabase, startService, stopService, subscriberHeaders } from "./support.js";

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const duration = Number(process.env.BENCH_SECONDS ?? 20);
const body = JSON.stringify({ type: "invoice.paid", data: { id: "in_1", amount: 1200, note: "x".repeat(950) } });

await ensureDatabase();
const headers = await subscriberHeaders();
const service = await startService(process.env.BENCH_BATCH_MAX ? { WEBHOOK_RELAY_CAPTURE_BATCH_MAX: process.env.BENCH_BATCH_MAX } : {});
try {
  const inboxId = await createInbox(headers);
  // Warm-up: JIT, connection pools.
  await autocannon({ url: `${BASE}/h/${inboxId}`, method: "POST", body, headers: { "content-type": "application/json" }, connections, duration: 3 });
  const cpuBefore = cpuSeconds(service.pid!);
  const result = await autocannon({
    url: `${BASE}/h/${inboxId}/events?source=bench`,
    method: "POST",
    body,
    headers: { "content-type": "application/json", "x-event": "invoice.paid" },
    connections,
    duration,
  });
  const cpuUsed = cpuSeconds(service.pid!) - cpuBefore;
  console.log(
    JSON.stringify(
      {
        capture_batch_max: process.env.BENCH_BATCH_MAX ?? "100 (default)",
        body_bytes: Buffer.byteLength(body),
        connections,
        duration_s: duration,
        requests: result.requests.total,
        non_2xx: result.non2xx,
        errors: result.errors,
        requests_per_s_mean: result.requests.average,
        service_cpu_s: Number(cpuUsed.toFixed(2)),
        service_cpu_us_per_capture: Math.round((cpuUsed * 1e6) / result.requests.total),
        captures_per_cpu_second: Math.round(result.requests.total / cpuUsed),
        latency_ms: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
      },
      null,
      2,
    ),
  );
} finally {
  await stopService(service);
}
