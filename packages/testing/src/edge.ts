import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const PRODUCTION_DIR = path.join(REPO, "infra/nginx");

/**
 * Ports for processes a test starts itself and may restart on the same port: picked at random below Linux's ephemeral
 * range (32768 and up), where no outgoing connection and no `listen(0)` ever lands, and checked free on 127.0.0.1.
 */
export async function pickFixedPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("no free port found between 20000 and 32000");
}

function replaceOnce(text: string, find: string | RegExp, replacement: string): string {
  const found = typeof find === "string" ? text.includes(find) : find.test(text);
  // The production file changed shape: fail loudly rather than test a configuration production does not have.
  if (!found) throw new Error(`infra/nginx/nginx.conf no longer contains ${String(find)}; update packages/testing/src/edge.ts`);
  return text.replace(find, replacement);
}

/**
 * Production's nginx configuration (every file of infra/nginx), on loopback: the same routing, proxy headers, body
 * limits, buffering and retries to the next upstream, with `service-addresses.conf` replaced by one upstream group of
 * `ports`, round-robin, which every service name leads to. Each request is logged with every replica nginx tried.
 */
export function writeEdgeConfig(dir: string, listenPort: number, ports: readonly number[], source = PRODUCTION_DIR): void {
  for (const file of readdirSync(source).filter((name) => name.endsWith(".conf"))) copyFileSync(path.join(source, file), path.join(dir, file));
  writeUpstreams(dir, ports, new Set());
  let conf = readFileSync(path.join(source, "nginx.conf"), "utf8");
  conf = replaceOnce(conf, "worker_processes auto;", "worker_processes 1;");
  conf = replaceOnce(conf, /access_log [^;]+;/, `access_log ${path.join(dir, "access.log")} replicas;`);
  conf = replaceOnce(conf, "listen 8080 default_server;", `listen 127.0.0.1:${listenPort} default_server;`);
  writeFileSync(path.join(dir, "nginx.conf"), conf);
}

/** The upstream group of `ports`, those in `down` marked as out of rotation. */
function writeUpstreams(dir: string, ports: readonly number[], down: ReadonlySet<number>): void {
  const servers = ports.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=2s${down.has(port) ? " down" : ""};`).join("\n");
  writeFileSync(
    path.join(dir, "service-addresses.conf"),
    `upstream replicas {\n${servers}\n}\nmap $service $service_address {\n    default replicas;\n}\n` +
      `log_format replicas '$request_method $request_uri $status $upstream_addr $upstream_status';\n`,
  );
}

export interface Edge {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** One line per request: method, URI, status, the replicas tried (`127.0.0.1:p1, 127.0.0.1:p2`) and their statuses. */
  accessLog(): string[];
  /**
   * Takes the replica on `port` out of rotation (or puts it back) and reloads nginx, as an orchestrator does before it
   * stops a replica: requests already sent to it finish, new ones go to the others.
   */
  setInRotation(port: number, inRotation: boolean): Promise<void>;
  close(): Promise<void>;
}

/** How long a reload takes to reach new requests: nginx starts new workers and the old ones stop accepting. */
const RELOAD_SETTLE_MS = 500;

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited with code ${child.exitCode}`);
    if (
      await fetch(`${url}/nginx-health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not answer within ${timeoutMs} ms`);
}

/** A real nginx on loopback in front of `ports`, from production's configuration (see writeEdgeConfig). */
export async function startEdge(ports: readonly number[], timeoutMs = 20_000, source?: string): Promise<Edge> {
  const dir = mkdtempSync(path.join(tmpdir(), "edge-"));
  const port = await pickFixedPort();
  writeEdgeConfig(dir, port, ports, source);
  const errorLog = path.join(dir, "error.log");
  const args = ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", errorLog, "-g", `daemon off; pid ${dir}/nginx.pid;`];
  const child = spawn("nginx", args, { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child, timeoutMs);
  } catch (error) {
    child.kill("SIGKILL");
    let log = "";
    try {
      log = readFileSync(errorLog, "utf8");
    } catch {}
    throw new Error(`${(error as Error).message}\n${log}`);
  }
  const down = new Set<number>();
  return {
    url,
    port,
    async setInRotation(replicaPort, inRotation) {
      if (down.has(replicaPort) !== inRotation) return;
      if (inRotation) down.delete(replicaPort);
      else down.add(replicaPort);
      writeUpstreams(dir, ports, down);
      child.kill("SIGHUP");
      await new Promise((resolve) => setTimeout(resolve, RELOAD_SETTLE_MS));
    },
    accessLog() {
      try {
        return readFileSync(path.join(dir, "access.log"), "utf8").split("\n").filter(Boolean);
      } catch {
        return [];
      }
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}
