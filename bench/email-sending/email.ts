/**
 * Email sending, three figures against a running service (its own process, pinned to core 0 when taskset exists):
 *   1. messages accepted per second by POST /send (autocannon, 10 s), the queue worker delivering meanwhile;
 *   2. messages delivered per second to a loopback SMTP sink while a backlog drains;
 *   3. queue-to-relay latency (202's submitted_at to the sink's receipt) at an even 100 messages/s for 20 s.
 * Run: bash scripts/pnpm.sh exec tsx bench/email-sending/email.ts  (BENCH_RATE=20 for another rate in step 3)
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { SMTPServer } from "smtp-server";
import { onCoreZero } from "../lib/cores.js";
import { cpuSeconds } from "../lib/proc-cpu.js";

const received = new Map<string, number>();
let receivedCount = 0;
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  hideDSN: false,
  logger: false,
  size: 40 * 1024 * 1024,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      const id = /X-Email-ID: (msg_[0-9a-f]{24})/i.exec(Buffer.concat(chunks).toString("latin1"))?.[1];
      if (id) received.set(id, Date.now());
      receivedCount++;
      callback();
    });
  },
});
await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", () => resolve()));
const sinkPort = (sink.server.address() as { port: number }).port;

const command = onCoreZero([process.execPath, "--import", "tsx", "bench/email-sending/serve.ts"]);
const child = spawn(command[0], command.slice(1), { env: { ...process.env, SMTP_URL: `smtp://127.0.0.1:${sinkPort}` }, stdio: ["ignore", "pipe", "inherit"] });
const { port, key, pid } = await new Promise<{ port: number; key: string; pid: number }>((resolve) => {
  createInterface({ input: child.stdout! }).once("line", (line) => resolve(JSON.parse(line)));
});
const base = `http://127.0.0.1:${port}`;
const headers = { "x-gateway-key": key, "x-gateway-host": "email-sending.api.local", "content-type": "application/json" };
const body = (i: number) =>
  JSON.stringify({
    to: `reader${i}@example.com`,
    subject: "Your receipt",
    html: '<p>Thanks for your order. <a href="https://shop.example.com/o/1">View it</a></p>',
    tags: ["bench"],
  });

async function waitForDrain(target: number, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (receivedCount < target && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

// 1. Accepted per second.
const warmUp = await autocannon({ url: `${base}/send`, method: "POST", headers, body: body(0), connections: 20, duration: 3 });
await waitForDrain(warmUp["2xx"]);
const cpuBeforeAccept = cpuSeconds(pid);
const receivedBeforeAccept = receivedCount;
const accepted = await autocannon({ url: `${base}/send`, method: "POST", headers, body: body(1), connections: 50, duration: 10 });
const acceptCpu = cpuSeconds(pid) - cpuBeforeAccept;
const deliveredDuringAccept = receivedCount - receivedBeforeAccept;
const acceptedPerSecond = accepted["2xx"] / 10;
console.log(
  `accepted: ${accepted["2xx"]} in 10 s = ${acceptedPerSecond.toFixed(0)}/s (p50 ${accepted.latency.p50} ms, p99 ${accepted.latency.p99} ms, non-2xx ${accepted.non2xx}); service CPU ${acceptCpu.toFixed(2)} s while it also delivered ${deliveredDuringAccept}`,
);

// 2. Delivered per second while the backlog drains (the warm-up and the accept run queued them all).
const total = warmUp["2xx"] + accepted["2xx"];
const drainStart = Date.now();
const startCount = receivedCount;
const cpuBeforeDrain = cpuSeconds(pid);
await waitForDrain(total);
const drainCpu = cpuSeconds(pid) - cpuBeforeDrain;
const drainSeconds = (Date.now() - drainStart) / 1000;
const delivered = receivedCount - startCount;
console.log(
  `delivered while draining: ${delivered} in ${drainSeconds.toFixed(1)} s = ${(delivered / drainSeconds).toFixed(0)}/s (backlog ${total - startCount} at the start); service CPU ${drainCpu.toFixed(2)} s = ${(delivered / drainCpu).toFixed(0)} deliveries per CPU-second`,
);
const acceptOnlyCpu = acceptCpu - deliveredDuringAccept * (drainCpu / delivered);
console.log(
  `estimated API cost: ${((acceptOnlyCpu / accepted["2xx"]) * 1e6).toFixed(0)} µs of service CPU per accepted message = ${(accepted["2xx"] / acceptOnlyCpu).toFixed(0)} accepted per CPU-second (the delivery CPU of that window, at the drain's cost per message, taken out)`,
);

// 3. Latency at an even rate (BENCH_RATE, default 100 messages/s) for 20 s.
const rate = Number(process.env.BENCH_RATE ?? 100);
const latencies: number[] = [];
const submitted = new Map<string, number>();
const sends: Promise<void>[] = [];
const started = Date.now();
for (let i = 0; i < rate * 20; i++) {
  const due = started + (i * 1000) / rate;
  const wait = due - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  sends.push(
    fetch(`${base}/send`, { method: "POST", headers, body: body(i) }).then(async (res) => {
      const data = ((await res.json()) as { data: { id: string; submitted_at: string } }).data;
      submitted.set(data.id, Date.parse(data.submitted_at));
    }),
  );
}
await Promise.all(sends);
const deadline = Date.now() + 30_000;
while ([...submitted.keys()].some((id) => !received.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
for (const [id, at] of submitted) if (received.has(id)) latencies.push(received.get(id)! - at);
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
const load = (await import("node:os")).loadavg()[0].toFixed(1);
console.log(`load average at the end: ${load} on ${(await import("node:os")).cpus().length} cores`);
console.log(
  `queue-to-relay at ${rate}/s: ${latencies.length} of ${submitted.size} delivered; p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, max ${latencies.at(-1)} ms`,
);

child.kill("SIGTERM");
await new Promise((resolve) => child.once("exit", resolve));
sink.close();
