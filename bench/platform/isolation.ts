/**
 * The local start as a whole: how long `npm start` takes to come up, the memory of everything it runs (the sum of the
 * RSS of every process, the database's included), and how other services' /health answer while one service is
 * kept busy by heavy requests (120 concurrent /summarize/long of 50,000 words each, BENCH_HEAVY_REQUESTS).
 *
 *   bash scripts/pnpm.sh exec tsx bench/platform/isolation.ts [checkout]
 *
 * `checkout` (default: this one) is the repository whose scripts/start-all.ts is measured, so that a clone of an older
 * commit is measured the same way (its packages installed). The start runs without DATABASE_URL and REDIS_URL, on
 * ports 42000-42018 (BENCH_PORT_BASE moves them, to run two checkouts side by side), with its data in a new scratch folder (LOCAL_DATA_DIR, and EMBEDDED_DATA_DIR for older checkouts),
 * so the catalogue services load their datasets first: the heavy requests start once every service's /ready answers.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SERVICE_NAMES, envPrefix } from "@apiplat/config";
import { longText } from "@apiplat/testing";

const checkout = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, "../.."));
// Enough summaries to keep the busy service working about 10 s on a quiet machine (about 80 ms each).
const HEAVY_REQUESTS = Number(process.env.BENCH_HEAVY_REQUESTS ?? 120);
const WORDS = 50_000;
const PROBE_INTERVAL_MS = 50;
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 42_000);
const portOf = (name: string) => (name === "admin" ? PORT_BASE : PORT_BASE + 1 + SERVICE_NAMES.indexOf(name as (typeof SERVICE_NAMES)[number]));
const base = (name: string) => `http://127.0.0.1:${portOf(name)}`;
const token = randomBytes(18).toString("base64url");
const scratch = mkdtempSync(path.join(tmpdir(), "bench-isolation-"));

/** Every process descending from `root` (the start itself, its services, the database's processes). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(
        readFileSync(`/proc/${entry}/stat`, "utf8")
          .replace(/^.*\) /, "")
          .split(" ")[1],
      );
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Ended meanwhile.
    }
  }
  const found: number[] = [];
  const visit = (pid: number) => {
    found.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return found;
}

function rssBytes(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      total += Number(kib ?? 0) * 1024;
    } catch {
      // Ended meanwhile.
    }
  }
  return total;
}

async function admin(method: string, route: string, body?: unknown): Promise<any> {
  const response = await fetch(base("admin") + route, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const payload = (await response.json()) as { data: unknown };
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(payload)}`);
  return payload.data;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const env: NodeJS.ProcessEnv = {
  ...process.env,
  ADMIN_TOKEN: token,
  ADMIN_PORT: String(PORT_BASE),
  LOG_LEVEL: "warn",
  RATE_LIMITS: "off",
  LOCAL_DATA_DIR: scratch,
  EMBEDDED_DATA_DIR: path.join(scratch, "pglite"),
};
for (const name of ["DATABASE_URL", "DATABASE_SCHEMA", "REDIS_URL", "REDIS_KEY_PREFIX", "START_ONLY"]) delete env[name];
for (const name of SERVICE_NAMES) env[`${envPrefix(name)}_PORT`] = String(portOf(name));
// email-sending's inbound SMTP listener, away from a developer's own start (2525).
env.EMAIL_INBOUND_PORT = String(PORT_BASE + 25);

const began = performance.now();
const start = spawn(process.execPath, ["--import", "tsx", "scripts/start-all.ts"], { cwd: checkout, env, stdio: ["ignore", "pipe", "pipe"] });
let output = "";
start.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
start.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output = (output + chunk).slice(-100_000)));
while (!/API platform is up[\s\S]*X-Gateway-Key/.test(output)) {
  if (start.exitCode !== null) throw new Error(`the start ended:\n${output}`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const startSeconds = (performance.now() - began) / 1000;
const services = [...output.matchAll(/^ {2}([a-z-]+) +(?:http:|still starting|did not start)/gm)].map((match) => match[1]).filter((name) => name !== "admin");
// Settled: every service ready (catalogues load their datasets in the background on a new database, which keeps
// their own event loops busy), then 10 s at rest.
const readyDeadline = Date.now() + 1_200_000;
for (const name of services) {
  for (;;) {
    const ready = await fetch(`${base(name)}/ready`, { signal: AbortSignal.timeout(30_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > readyDeadline) throw new Error(`${name} was not ready within 20 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
const readySeconds = (performance.now() - began) / 1000;
await new Promise((resolve) => setTimeout(resolve, 10_000));
const processes = processTree(start.pid!);
const restBytes = rssBytes(processes);

const account = await admin("POST", "/admin/accounts", { name: "isolation bench" });
await admin("PUT", `/admin/accounts/${account.id}/subscriptions/*`, { plan: "PRO" });
const { key } = await admin("POST", `/admin/accounts/${account.id}/keys`);

const probed = ["admin", ...services];
// Built before the probes start: building 1.2 million words takes the driver's own event loop seconds.
const bodies = Array.from({ length: HEAVY_REQUESTS }, (_, i) => JSON.stringify({ text: longText(i + 1, WORDS) }));
// The probes run in a process of their own, so that nothing this driver does (sending 24 large bodies) delays them.
const PROBE = `
  for (const [name, url] of JSON.parse(process.argv[1])) (async () => {
    for (;;) {
      const sent = performance.now();
      const ok = await fetch(url, { signal: AbortSignal.timeout(120000) }).then((r) => r.body?.cancel().then(() => r.ok), () => false);
      process.stdout.write(name + " " + (ok ? performance.now() - sent : Infinity) + "\\n");
      await new Promise((resolve) => setTimeout(resolve, ${PROBE_INTERVAL_MS}));
    }
  })();`;
const probe = spawn(process.execPath, ["--input-type=module", "-e", PROBE, JSON.stringify(probed.map((name) => [name, `${base(name)}/health`]))], {
  stdio: ["ignore", "pipe", "inherit"],
});
let probeOutput = "";
probe.stdout!.setEncoding("utf8").on("data", (chunk: string) => (probeOutput += chunk));
let busy = true;
let peakBytes = restBytes;
const memory = (async () => {
  while (busy) {
    peakBytes = Math.max(peakBytes, rssBytes(processTree(start.pid!)));
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
})();
await new Promise((resolve) => setTimeout(resolve, 1_000));
const heavyStarted = performance.now();
const statuses = await Promise.all(
  Array.from({ length: HEAVY_REQUESTS }, async (_, i) => {
    const response = await fetch(`${base("summarization")}/summarize/long`, {
      method: "POST",
      headers: { "x-gateway-key": key, "x-gateway-host": "summarization.api.local", "content-type": "application/json" },
      body: bodies[i],
      signal: AbortSignal.timeout(600_000),
    });
    await response.body?.cancel();
    return response.status;
  }),
);
const heavySeconds = (performance.now() - heavyStarted) / 1000;
busy = false;
probe.kill("SIGKILL");
await memory;
const latencies = new Map<string, number[]>(probed.map((name) => [name, []]));
for (const line of probeOutput.split("\n")) {
  const [name, ms] = line.split(" ");
  if (ms !== undefined) latencies.get(name)?.push(Number(ms));
}

const stopBegan = performance.now();
const stopped = new Promise((resolve) => start.once("exit", resolve));
start.kill("SIGTERM");
await stopped;
const stopSeconds = (performance.now() - stopBegan) / 1000;
rmSync(scratch, { recursive: true, force: true });

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { probes: sorted.length, p50_ms: Math.round(percentile(sorted, 50)), p99_ms: Math.round(percentile(sorted, 99)), max_ms: Math.round(sorted.at(-1)!) };
};
const others = probed.filter((name) => name !== "summarization");
console.log(
  JSON.stringify(
    {
      checkout,
      when: new Date().toISOString(),
      load_average_at_end: readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
      start_seconds: Number(startSeconds.toFixed(1)),
      every_service_ready_seconds: Number(readySeconds.toFixed(1)),
      processes_at_rest: processes.length,
      rss_at_rest_mib: Math.round(restBytes / 2 ** 20),
      rss_peak_under_load_mib: Math.round(peakBytes / 2 ** 20),
      heavy: {
        requests: HEAVY_REQUESTS,
        words_each: WORDS,
        statuses: Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length])),
        seconds: Number(heavySeconds.toFixed(1)),
      },
      other_services_health: summary(others.flatMap((name) => latencies.get(name)!)),
      busy_service_health: summary(latencies.get("summarization")!),
      per_service: Object.fromEntries(probed.map((name) => [name, summary(latencies.get(name)!)])),
      stop_seconds: Number(stopSeconds.toFixed(1)),
    },
    null,
    2,
  ),
);
