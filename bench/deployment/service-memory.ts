/**
 * What each deployed service costs in memory and start-up time, the figures behind the Kubernetes resource requests
 * and limits (deploy/kubernetes/README.md). Each service's own main.ts is started alone, as a container runs it: on
 * PostgreSQL (DATABASE_URL, a database of its own: the catalogue services load their datasets into it), as an
 * unprivileged user (MEASURE_USER, default `nobody`) for whom only its private TMPDIR is writable, like a container
 * with a read-only root filesystem and an emptyDir on /tmp. The script waits for /ready, then reads the memory of the
 * service's whole process tree (Chromium, worker processes): resident (RSS), proportional (PSS, shared pages split)
 * and the peak resident size of the main process (VmHWM).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/apiplat_measure \
 *     bash scripts/pnpm.sh exec tsx bench/deployment/service-memory.ts [service ...]
 *
 * The data services build their in-memory catalogues on their first searches: with MEASURE_KEY (a key subscribed to
 * every service, e.g. from `npm run admin -- quickstart`), the script asks each of them two searches (WARM_UP) and
 * reads the memory again.
 *
 * No REDIS_URL: each process keeps its own in-process store (negligible while idle). Services listen on ports from
 * MEASURE_PORT_BASE (39100) up, never the product's own ports.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { envPrefix } from "@apiplat/config";
import { deployedServiceNames } from "@apiplat/deployment";

const root = path.resolve(import.meta.dirname, "../..");
const user = process.env.MEASURE_USER ?? "nobody";
const portBase = Number(process.env.MEASURE_PORT_BASE ?? 39100);
const readyTimeoutMs = Number(process.env.MEASURE_READY_TIMEOUT_MS ?? 600_000);
const settleMs = Number(process.env.MEASURE_SETTLE_MS ?? 5_000);

/** Requests that make a data service build what it holds in memory (searches of the services' README examples). */
const WARM_UP: Record<string, string[]> = {
  news: ["/search?q=climate%20change&language=en&limit=2", "/top-headlines?country=au&limit=2"],
  "video-analytics": ["/search?q=thanksgivng&country=us&limit=2", "/trending?country=us&limit=2"],
  "search-results": ["/search?q=espresso%20crema&num=3", "/search?q=cofee%20grinder&num=2"],
  "real-estate": ["/search?city=Sacramento&limit=1&facets=true", "/search?lat=38.5&lon=-121.4&radius_km=3"],
  "product-data": ["/search?q=extension%20cord&limit=1&facets=true", "/search?q=windshild%20repair&limit=1"],
  "company-data": ["/search?name=aple%20inc&limit=2", "/search?sector=Technology&state=CA&limit=3"],
};

interface Sample {
  service: string;
  readyMs: number | null;
  /** After the warm-up requests, when the service has some. */
  warm?: Omit<Sample, "service" | "readyMs" | "warm">;
  rssMiB: number;
  pssMiB: number;
  peakMainMiB: number;
  processes: number;
}

function children(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

function tree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...children(all[i]));
  return all;
}

function kib(file: string, field: string): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(file, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

function memory(pid: number): Omit<Sample, "service" | "readyMs" | "warm"> {
  const pids = tree(pid);
  const sum = (file: string, field: string) => pids.reduce((total, p) => total + kib(`/proc/${p}/${file}`, field), 0);
  return {
    rssMiB: sum("status", "VmRSS") / 1024,
    pssMiB: sum("smaps_rollup", "Pss") / 1024,
    peakMainMiB: kib(`/proc/${pid}/status`, "VmHWM") / 1024,
    processes: pids.length,
  };
}

async function waitReady(url: string, child: ChildProcess): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < readyTimeoutMs) {
    if (child.exitCode !== null) return null;
    const ok = await fetch(url).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 250));
  }
  return null;
}

async function measure(service: string, port: number): Promise<Sample> {
  const tmp = mkdtempSync(path.join(tmpdir(), `measure-${service}-`));
  chownSync(tmp, Number(process.env.MEASURE_UID ?? 65534), Number(process.env.MEASURE_GID ?? 65534));
  const portVariable = service === "admin" ? "ADMIN_PORT" : `${envPrefix(service)}_PORT`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: "/nonexistent",
    TMPDIR: tmp,
    NODE_ENV: "production",
    DATABASE_URL: process.env.DATABASE_URL ?? "",
    ADMIN_TOKEN: "measure-only-token",
    EMAIL_SECRET: "measure-only-secret-measure-only-secret",
    EMAIL_OUTBOX_DIR: path.join(tmp, "outbox"),
    EMAIL_INBOUND_PORT: String(port + 1000),
    BIND_ADDRESS: "127.0.0.1",
    LOG_LEVEL: "warn",
    [portVariable]: String(port),
  };
  const command = `cd ${root} && exec node --import tsx services/${service}/src/main.ts`;
  const child = spawn("su", ["-s", "/bin/sh", user, "-c", command], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  try {
    const readyMs = await waitReady(`http://127.0.0.1:${port}/ready`, child);
    if (readyMs === null) console.error(`${service}: not ready (${child.exitCode === null ? "timeout" : `exit ${child.exitCode}`})\n${stderr}`);
    await new Promise((r) => setTimeout(r, settleMs));
    // su forks the shell, which execs node: the service is su's child.
    const node = children(child.pid!)[0] ?? child.pid!;
    const idle = memory(node);
    const key = process.env.MEASURE_KEY;
    if (!key || !WARM_UP[service] || readyMs === null) return { service, readyMs, ...idle };
    for (const pathname of WARM_UP[service]) {
      const response = await fetch(`http://127.0.0.1:${port}${pathname}`, {
        headers: { "x-gateway-key": key, "x-gateway-host": `${service}.api.local`, "cache-control": "no-cache" },
      });
      if (!response.ok) console.error(`${service} ${pathname}: ${response.status} ${(await response.text()).slice(0, 200)}`);
    }
    await new Promise((r) => setTimeout(r, settleMs));
    return { service, readyMs, ...idle, warm: memory(node) };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode === null ? child.once("exit", r) : r(null)));
    rmSync(tmp, { recursive: true, force: true });
  }
}

const wanted = process.argv.slice(2).filter((a) => a !== "--");
const services = wanted.length ? wanted : ["admin", ...deployedServiceNames()];
if (!process.env.DATABASE_URL) {
  console.error("Set DATABASE_URL to a database of its own (the catalogue services load their datasets into it).");
  process.exit(2);
}
console.log(
  "| service | ready after | RSS, process tree | PSS, process tree | peak RSS of the main process | processes | after the warm-up: RSS / PSS / peak |",
);
console.log("|---|---|---|---|---|---|---|");
for (const [index, service] of services.entries()) {
  const s = await measure(service, portBase + index);
  const ready = s.readyMs === null ? "not ready" : `${(s.readyMs / 1000).toFixed(1)} s`;
  const warm = s.warm ? `${s.warm.rssMiB.toFixed(0)} / ${s.warm.pssMiB.toFixed(0)} / ${s.warm.peakMainMiB.toFixed(0)} MiB` : "";
  const line = [s.service, ready, `${s.rssMiB.toFixed(0)} MiB`, `${s.pssMiB.toFixed(0)} MiB`, `${s.peakMainMiB.toFixed(0)} MiB`, s.processes, warm];
  console.log(`| ${line.join(" | ")} |`);
}
