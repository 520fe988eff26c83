/**
 * Forwarding latency under load: captures arrive at a steady rate into an inbox that forwards to a
 * destination on loopback; each capture carries the time it was due, and the destination notes when
 * the signed copy arrived. The figure is sender -> destination, so it includes the capture itself.
 * Captures are spaced evenly (bench/lib/open-loop.ts), not sent in once-a-second bursts as autocannon's
 * overallRate does.
 *   bash scripts/pnpm.sh exec tsx bench/webhook-relay/forward.ts
 * Env: BENCH_RATE (captures per second, default 500), BENCH_SECONDS (default 20).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { runOpenLoop } from "../lib/open-loop.js";
import { BASE, cpuSeconds, createInbox, ensureDatabase, percentile, startService, stopService, subscriberHeaders } from "./support.js";

const rate = Number(process.env.BENCH_RATE ?? 500);
const duration = Number(process.env.BENCH_SECONDS ?? 20);
const body = JSON.stringify({ type: "invoice.paid", data: { id: "in_1", amount: 1200 } });
const now = () => performance.timeOrigin + performance.now();

const latencies: number[] = [];
let unsigned = 0;
let measureFrom = Infinity;
const destination = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const sentAt = Number(req.headers["x-sent-at"]);
    if (!req.headers["webhook-signature"]) unsigned++;
    if (sentAt >= measureFrom) latencies.push(now() - sentAt);
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => destination.listen(0, "127.0.0.1", resolve));
const destinationUrl = `http://127.0.0.1:${(destination.address() as AddressInfo).port}/in`;

await ensureDatabase();
const headers = await subscriberHeaders();
const service = await startService();
try {
  const inboxId = await createInbox(headers);
  const forward = await fetch(`${BASE}/forward/${inboxId}`, { method: "POST", headers, body: JSON.stringify({ url: destinationUrl }) });
  if (!forward.ok) throw new Error(`setting the destination failed: ${await forward.text()}`);
  const run = (seconds: number) =>
    runOpenLoop({
      origin: BASE,
      rate,
      durationSeconds: seconds,
      connections: 32,
      request: (_, dueAt) => ({
        method: "POST",
        path: `/h/${inboxId}`,
        body,
        headers: { "content-type": "application/json", "x-sent-at": (performance.timeOrigin + dueAt).toFixed(3) },
      }),
    });
  await run(3);
  await new Promise((r) => setTimeout(r, 1000));
  measureFrom = now();
  const cpuBefore = cpuSeconds(service.pid!);
  const result = await run(duration);
  await new Promise((r) => setTimeout(r, 2000));
  const cpuUsed = cpuSeconds(service.pid!) - cpuBefore;
  latencies.sort((a, b) => a - b);
  const ms = (v: number) => Number(v.toFixed(1));
  console.log(
    JSON.stringify(
      {
        target_rate_per_s: rate,
        duration_s: duration,
        captures: result.completed,
        capture_statuses: result.statusCounts,
        capture_errors: result.errors,
        forwarded: latencies.length,
        unsigned,
        capture_latency_ms: result.latencyMs,
        client_loop_delay_ms: result.clientLoopDelayMs,
        sender_to_destination_ms: {
          p50: ms(percentile(latencies, 50)),
          p90: ms(percentile(latencies, 90)),
          p99: ms(percentile(latencies, 99)),
          max: ms(latencies[latencies.length - 1]),
        },
        service_cpu_us_per_capture_and_forward: Math.round((cpuUsed * 1e6) / result.completed),
      },
      null,
      2,
    ),
  );
} finally {
  await stopService(service);
  destination.close();
}
