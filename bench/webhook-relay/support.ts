/**
 * What the webhook-relay benchmarks share: a service process started on real PostgreSQL and Redis,
 * a subscriber key, and autocannon (a devDependency of the service, resolved from its folder).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../packages/config/src/index.js";
import { AccountStore } from "../../packages/gateway-auth/src/index.js";
import { migratePlatform, openPlatform } from "../../packages/service-kit/src/index.js";

const serviceDir = fileURLToPath(new URL("../../services/webhook-relay/", import.meta.url));
const requireFromService = createRequire(`${serviceDir}package.json`);
export const autocannon = requireFromService("autocannon") as typeof import("autocannon");

export const BENCH_PORT = Number(process.env.BENCH_PORT ?? 3910);
export const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/webhook_relay_bench";
export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379/1";
export const BASE = `http://127.0.0.1:${BENCH_PORT}`;
export const HOST = "webhook-relay.api.local";

/** Creates the bench database once (on the server of DATABASE_URL). */
export async function ensureDatabase(): Promise<void> {
  const url = new URL(DATABASE_URL);
  const name = url.pathname.slice(1);
  const pg = requireFromService("../../packages/storage/node_modules/pg") as typeof import("pg");
  const admin = new pg.Client({ connectionString: DATABASE_URL.replace(/\/[^/]*$/, "/postgres") });
  await admin.connect();
  const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
}

/** A new account subscribed to webhook-relay on MEGA, and its gateway headers. */
export async function subscriberHeaders(): Promise<Record<string, string>> {
  const platform = await openPlatform(loadConfig({ DATABASE_URL, REDIS_URL, LOG_LEVEL: "silent" }));
  try {
    await migratePlatform(platform);
    const accounts = new AccountStore(platform.db);
    const account = await accounts.createAccount(`bench ${new Date().toISOString()}`);
    await accounts.subscribe(account.id, ["webhook-relay"], "MEGA");
    const { key } = await accounts.createKey(account.id);
    return { "x-gateway-key": key, "x-gateway-host": HOST, "content-type": "application/json" };
  } finally {
    await platform.close();
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

export async function startService(extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
  if (await answers(`${BASE}/health`)) throw new Error(`something already listens on ${BASE}; set BENCH_PORT`);
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, "--import", "tsx", "src/main.ts"], {
    cwd: serviceDir,
    env: {
      ...process.env,
      DATABASE_URL,
      REDIS_URL,
      WEBHOOK_RELAY_PORT: String(BENCH_PORT),
      BIND_ADDRESS: "127.0.0.1",
      OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8",
      LOG_LEVEL: "warn",
      LOG_REQUESTS: "false",
      // The benchmarks measure throughput into one inbox, far above its per-second capture limit (10/s).
      WEBHOOK_RELAY_CAPTURES_PER_SECOND: "1000000",
      ...extraEnv,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  let exited = false;
  child.once("exit", () => (exited = true));
  for (let i = 0; i < 300 && !exited; i++) {
    if (await answers(`${BASE}/ready`)) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGTERM");
  throw new Error("the service did not become ready");
}

export async function stopService(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

export async function createInbox(headers: Record<string, string>): Promise<string> {
  const res = await fetch(`${BASE}/create`, { method: "POST", headers, body: "{}" });
  const payload = (await res.json()) as { data: { id: string } };
  return payload.data.id;
}

export { cpuSeconds } from "../lib/proc-cpu.js";

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
