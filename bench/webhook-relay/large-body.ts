/**
 * What a 10 MiB capture costs everyone else: while captures of 10 MiB bodies arrive one after another,
 * a probe asks GET /health every 10 ms and records how long each answer took. A stall of the service's
 * event loop shows as the probe's worst latency. Service on real PostgreSQL and Redis.
 *   bash scripts/pnpm.sh exec tsx bench/webhook-relay/large-body.ts
 * Env: BENCH_CAPTURES (default 10), DATABASE_URL, REDIS_URL.
 */
import { BASE, cpuSeconds, createInbox, ensureDatabase, percentile, startService, stopService, subscriberHeaders } from "./support.js";

const captures = Number(process.env.BENCH_CAPTURES ?? 10);
const body = Buffer.alloc(10 * 1024 * 1024);
for (let i = 0; i < body.length; i++) body[i] = (i * 31 + (i >> 13)) & 0xff;

async function probe(until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!until()) {
    const started = performance.now();
    await fetch(`${BASE}/health`).then((r) => r.arrayBuffer());
    latencies.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 10));
  }
  return latencies;
}

await ensureDatabase();
const headers = await subscriberHeaders();
const service = await startService();
try {
  const inboxId = await createInbox(headers);
  await fetch(`${BASE}/h/${inboxId}`, { method: "POST", body: Buffer.alloc(1024), headers: { "content-type": "application/octet-stream" } });
  const quiet = await (async () => {
    const end = performance.now() + 2_000;
    return probe(() => performance.now() > end);
  })();

  let done = false;
  const probing = probe(() => done);
  const cpuBefore = cpuSeconds(service.pid!);
  const captureMs: number[] = [];
  const readMs: number[] = [];
  for (let i = 0; i < captures; i++) {
    // One a second at most: the inbox accepts 10 captures a second, and this measures stalls, not the limit.
    const started = performance.now();
    const sent = await fetch(`${BASE}/h/${inboxId}`, { method: "POST", body, headers: { "content-type": "application/octet-stream" } });
    if (!sent.ok) throw new Error(`capture ${i} answered ${sent.status}`);
    const { data } = (await sent.json()) as { data: { request_id: string } };
    captureMs.push(performance.now() - started);
    const readStarted = performance.now();
    const raw = Buffer.from(await (await fetch(`${BASE}/inbox/${inboxId}/requests/${data.request_id}/raw`, { headers })).arrayBuffer());
    if (!raw.equals(body)) throw new Error("the raw body differs from the one sent");
    readMs.push(performance.now() - readStarted);
  }
  const cpuUsed = cpuSeconds(service.pid!) - cpuBefore;
  done = true;
  const busy = (await probing).sort((a, b) => a - b);
  quiet.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  console.log(
    JSON.stringify(
      {
        captures,
        capture_ms_p50: round(
          percentile(
            [...captureMs].sort((a, b) => a - b),
            50,
          ),
        ),
        raw_read_ms_p50: round(
          percentile(
            [...readMs].sort((a, b) => a - b),
            50,
          ),
        ),
        service_cpu_ms_per_capture_and_read: round((cpuUsed * 1000) / captures),
        health_probe_quiet: { n: quiet.length, p50: round(percentile(quiet, 50)), max: round(quiet[quiet.length - 1]) },
        health_probe_during: { n: busy.length, p50: round(percentile(busy, 50)), p99: round(percentile(busy, 99)), max: round(busy[busy.length - 1]) },
      },
      null,
      2,
    ),
  );
} finally {
  await stopService(service);
}
