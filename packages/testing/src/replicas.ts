import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync } from "node:fs";
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { envPrefix, type AppName } from "@apiplat/config";
import { pickFixedPort, startEdge, type Edge } from "./edge.js";
import { createTestPlatform, type TestPlatform } from "./test-platform.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
// What a service process inherits from the test runner: enough to run node, nothing that configures the platform.
const INHERITED = ["PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "TZ", "DATASETS_DIR", "MODELS_DIR"];

export interface ReplicaSetOptions {
  /** How many instances to start (in parallel). */
  replicas: number;
  /** The platform whose database schema and Redis prefix the instances use; by default a new one, closed with the set. */
  platform?: TestPlatform;
  /** Added to every instance's environment, after the platform's (e.g. `RATE_LIMITS: "on"`; `REDIS_URL: ""` for none). */
  env?: Record<string, string>;
  /** How long an instance may take to answer /health (default 60 s: a busy machine is slow to compile). */
  startTimeoutMs?: number;
}

export interface ReplicaExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Replica {
  readonly index: number;
  /** Fixed for the replica's whole life, restarts included, so that nginx finds it again. */
  readonly port: number;
  /** `http://127.0.0.1:<port>`: the instance itself, bypassing nginx. */
  readonly url: string;
  readonly pid: number | undefined;
  readonly running: boolean;
  /** The instance's standard output and error, every start appended. */
  log(): string;
}

export interface EdgeRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Send to this replica directly instead of through nginx. */
  replica?: number;
}

export interface EdgeAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json(): any;
}

export interface ReplicaSet {
  service: AppName;
  platform: TestPlatform;
  replicas: readonly Replica[];
  /** nginx in front of the replicas, round-robin. */
  edge: Edge;
  /** One request through nginx (or to one replica); connection errors reject. */
  request(request: EdgeRequest): Promise<EdgeAnswer>;
  /** Sends the signal and waits for the process to end. */
  stop(index: number, signal: "SIGTERM" | "SIGKILL"): Promise<ReplicaExit>;
  /** A rolling restart's stop: the replica leaves nginx's rotation first, then gets SIGTERM; `start` puts it back. */
  drainAndStop(index: number): Promise<ReplicaExit>;
  /** Starts a stopped replica again on its port (extra environment for this start only) and waits until it answers. */
  start(index: number, env?: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

class ReplicaProcess implements Replica {
  private child: ChildProcess | undefined;
  private exit: Promise<ReplicaExit> = Promise.resolve({ code: null, signal: null });

  constructor(
    readonly index: number,
    public port: number,
    private readonly entry: string,
    private readonly logFile: string,
    private readonly baseEnv: Record<string, string>,
    private readonly portVariable: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  log(): string {
    try {
      return readFileSync(this.logFile, "utf8");
    } catch {
      return "";
    }
  }

  async start(extraEnv: Record<string, string>, timeoutMs: number): Promise<void> {
    if (this.running) throw new Error(`replica ${this.index} is already running`);
    const out = openSync(this.logFile, "a");
    const env = { ...this.baseEnv, ...extraEnv, [this.portVariable]: String(this.port) };
    const child = spawn(process.execPath, ["--import", "tsx", this.entry], { cwd: REPO, env, stdio: ["ignore", out, out] });
    closeSync(out);
    this.child = child;
    this.exit = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`replica ${this.index} (port ${this.port}) exited before answering:\n${this.log().slice(-3000)}`);
      if (
        await fetch(`${this.url}/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill("SIGKILL");
    throw new Error(`replica ${this.index} did not answer /health within ${timeoutMs} ms:\n${this.log().slice(-3000)}`);
  }

  async stop(signal: "SIGTERM" | "SIGKILL"): Promise<ReplicaExit> {
    if (this.running) this.child!.kill(signal);
    return this.exit;
  }
}

/**
 * K instances of a service as separate processes (`node --import tsx services/<name>/src/main.ts`, as production runs
 * one), on the real PostgreSQL and Redis in the test platform's schema and key prefix, behind a real nginx on loopback.
 * They see what the test made on the platform (accounts, keys, plans). Instances start in parallel.
 */
export async function startReplicas(service: AppName, options: ReplicaSetOptions): Promise<ReplicaSet> {
  const platform = options.platform ?? (await createTestPlatform());
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const dir = mkdtempSync(path.join(tmpdir(), `replicas-${service}-`));
  const inherited = Object.fromEntries(INHERITED.filter((name) => process.env[name]).map((name) => [name, process.env[name]!]));
  const baseEnv = {
    ...inherited,
    ...platform.processEnv,
    LOG_LEVEL: "warn",
    BIND_ADDRESS: "127.0.0.1",
    // nginx on loopback is the one proxy: request.ip is the client it saw.
    TRUST_PROXY: "127.0.0.1",
    // Paid usage reaches PostgreSQL five times a second (production: every second), so that tests wait little.
    METERING_FLUSH_MS: "200",
    ...options.env,
  };
  const entry = path.join(REPO, "services", service, "src/main.ts");
  const replicas: ReplicaProcess[] = [];
  for (let index = 0; index < options.replicas; index++) {
    replicas.push(new ReplicaProcess(index, await pickFixedPort(), entry, path.join(dir, `replica-${index}.log`), baseEnv, `${envPrefix(service)}_PORT`));
  }
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  let edge: Edge | undefined;
  const close = async () => {
    await edge?.close();
    await Promise.all(replicas.map((replica) => replica.stop("SIGTERM")));
    agent.destroy();
    if (!options.platform) await platform.close();
  };
  try {
    await Promise.all(replicas.map((replica) => replica.start({}, timeoutMs)));
    edge = await startEdge(replicas.map((replica) => replica.port));
  } catch (error) {
    await close();
    throw error;
  }
  const edgeUrl = edge.url;
  const balancer = edge;

  return {
    service,
    platform,
    replicas,
    edge,
    request: (req) => send(agent, req.replica === undefined ? edgeUrl : replicas[req.replica].url, req),
    stop: (index, signal) => replicas[index].stop(signal),
    drainAndStop: async (index) => {
      await balancer.setInRotation(replicas[index].port, false);
      return replicas[index].stop("SIGTERM");
    },
    start: async (index, env = {}) => {
      await replicas[index].start(env, timeoutMs);
      await balancer.setInRotation(replicas[index].port, true);
    },
    close,
  };
}

function send(agent: Agent, base: string, req: EdgeRequest): Promise<EdgeAnswer> {
  return sendOnce(agent, base, req).catch((error: Error & { reusedSocket?: boolean }) => {
    // A kept-alive connection the server closed as the request went out (nginx's old workers close theirs on a
    // reload): nothing of the request was read, and an HTTP client sends it again on a new connection.
    if (error.reusedSocket && (error as NodeJS.ErrnoException).code === "ECONNRESET") return sendOnce(agent, base, req);
    throw error;
  });
}

function sendOnce(agent: Agent, base: string, req: EdgeRequest): Promise<EdgeAnswer> {
  const body = req.body === undefined ? undefined : typeof req.body === "string" ? req.body : JSON.stringify(req.body);
  const headers: Record<string, string> = { ...req.headers };
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) headers["content-type"] = "application/json";
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(new URL(req.path, base), { method: req.method ?? "GET", headers, agent }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) }));
      res.on("error", reject);
    });
    outgoing.on("error", (error) => reject(Object.assign(error, { reusedSocket: outgoing.reusedSocket })));
    outgoing.end(body);
  });
}

export interface FloodOptions {
  /** Requests in flight at once. */
  concurrency: number;
  /** Keep sending until this long has passed (ms), or until `count` requests were sent. */
  durationMs?: number;
  count?: number;
}

export interface FloodResult {
  sent: number;
  /** Answers by status. */
  statuses: Record<number, number>;
  /** Requests that got no answer at all (the connection failed). */
  failed: number;
  /** Wall-clock milliseconds from the first request sent to the last answer. */
  elapsedMs: number;
}

/** Sends requests from `concurrency` loops at once, each waiting for its answer before the next, and counts the outcomes. */
export async function flood(send: (n: number) => Promise<EdgeAnswer>, options: FloodOptions): Promise<FloodResult> {
  const result: FloodResult = { sent: 0, statuses: {}, failed: 0, elapsedMs: 0 };
  const started = Date.now();
  const more = () =>
    (options.count === undefined || result.sent < options.count) && (options.durationMs === undefined || Date.now() - started < options.durationMs);
  const loop = async () => {
    while (more()) {
      const n = result.sent++;
      try {
        const answer = await send(n);
        result.statuses[answer.status] = (result.statuses[answer.status] ?? 0) + 1;
      } catch {
        result.failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, loop));
  result.elapsedMs = Date.now() - started;
  return result;
}
