import { fork } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type pg from "pg";
import type { Database, Queryable } from "./database.js";
import { prepareDataDir } from "./data-dir.js";
import { createPool, inTransaction, queryableOn } from "./postgres.js";

const SERVER_SCRIPT = fileURLToPath(new URL("./embedded-server.mjs", import.meta.url));
// PGlite is ONE backend session, and pglite-socket interleaves the protocol messages of concurrent clients outside
// explicit transactions (a Parse of one between the Parse and Bind of another). So each process talks to it over a
// single connection: pg's pool queues the queries, and a transaction holds the connection until COMMIT or ROLLBACK.
const CONNECTIONS_PER_PROCESS = 1;
// Room for a connection that is replacing one still closing; the pool never uses more than one at a time.
const SERVER_MAX_CONNECTIONS = 4;
// A query waits its turn for the connection at most this long (a wait forever would hide a transaction whose
// callback queries the database outside its `tx`, which waits for itself).
const QUEUE_TIMEOUT_MS = 30_000;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

interface EmbeddedServer {
  port: number;
  stop(): Promise<void>;
}

interface ServerMessage {
  type: "listening" | "failed";
  port?: number;
  message?: string;
}

/**
 * PGlite in a child process of its own rather than a worker thread: a process has its own umask (the data files
 * are created private without changing the platform's), PGlite's WebAssembly heap, which grows with the largest
 * value stored and never shrinks, stays out of the services' process, and the IPC channel closing stops it when the
 * platform dies, however it dies.
 */
async function startServer(dataDir: string | undefined): Promise<EmbeddedServer> {
  const child = fork(SERVER_SCRIPT, [dataDir ?? "", String(SERVER_MAX_CONNECTIONS)], {
    execArgv: [],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`The embedded database did not start within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    const settle = (error: Error | undefined, port?: number) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(port!);
    };
    child.once("message", (message: ServerMessage) =>
      message.type === "listening" ? settle(undefined, message.port) : settle(new Error(`The embedded database did not start: ${message.message}`)),
    );
    child.on("error", (error) => settle(error));
    void exited.then(() => settle(new Error(`The embedded database stopped while starting (exit code ${child.exitCode})`)));
  });
  // Open connections keep the platform alive; the database process alone must not.
  child.unref();
  child.channel?.unref();
  let stopping = false;
  void exited.then(() => {
    if (!stopping) console.error(`embedded database: its process ended unexpectedly (exit code ${child.exitCode}, signal ${child.signalCode}); queries fail until the platform restarts`);
  });
  return {
    port,
    async stop() {
      stopping = true;
      if (child.exitCode !== null || child.signalCode !== null) return;
      // A channel that closed meanwhile means the process is ending anyway; the timer below covers the rest.
      child.send({ type: "stop" }, () => {});
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

interface RunningServer {
  server: EmbeddedServer;
  pool: pg.Pool;
  session: SessionPath;
  users: number;
}

/**
 * PGlite is one session, whichever connection speaks to it: a search_path set there stays for the next statement,
 * anyone's. Each view of the embedded database therefore says which path its statements need, and a statement is
 * preceded by a SET only when the session's path, tracked here, is another (or unknown: a new connection, a failed
 * statement). A service working alone pays nothing per statement; a transaction setting the path locally cost three
 * more round trips each. The SET runs outside any transaction, so no rollback can undo it behind the tracking.
 */
class SessionPath {
  /** null: unknown, set again before the next statement. */
  private current: string | null = null;

  constructor(private readonly pool: pg.Pool) {
    pool.on("connect", () => (this.current = null));
  }

  /** `work` on the connection, alone, with search_path `path` (null: the session's default). */
  async on<T>(path: string | null, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const wanted = path ?? "DEFAULT";
    try {
      if (this.current !== wanted) {
        this.current = null;
        await client.query(`SET search_path TO ${wanted}`);
        this.current = wanted;
      }
      const result = await work(client);
      client.release();
      return result;
    } catch (error) {
      this.current = null;
      // As pg's pool.query does: a client that failed a statement is not reused.
      client.release(error instanceof Error ? error : true);
      throw error;
    }
  }
}

/** The embedded database seen with search_path `schemas` (null: the session's default, the platform's own). */
function sessionDatabase(running: RunningServer, schemas: readonly string[] | null, close: () => Promise<void>): Database {
  const path = schemas && schemas.map((schema) => `"${schema}"`).join(", ");
  const query: Queryable["query"] = (sql, params) => running.session.on(path, (client) => queryableOn(client).query(sql, params));
  let closed: Promise<void> | undefined;
  return {
    kind: "embedded",
    query,
    exec: (sql) => running.session.on(path, async (client) => void (await client.query(sql))),
    transaction: (work) => running.session.on(path, (client) => inTransaction(client, work)),
    ping: async () => void (await query("SELECT 1")),
    close() {
      closed ??= close();
      return closed;
    },
    withSearchPath(schemas) {
      if (!schemas.every((schema) => /^[a-z0-9_]+$/.test(schema))) throw new Error(`unsafe search_path: ${schemas.join(",")}`);
      // The view's statements share the platform's connection; closing it releases nothing.
      return sessionDatabase(running, schemas, async () => {});
    },
  };
}

async function startPooledServer(dataDir: string | undefined): Promise<RunningServer> {
  const server = await startServer(dataDir);
  try {
    // A new database's files come out of PGlite's initial image with mode 0666 (later ones follow the umask).
    if (dataDir !== undefined) prepareDataDir(dataDir);
  } catch (error) {
    await server.stop();
    throw error;
  }
  const pool = createPool(`postgres://postgres@127.0.0.1:${server.port}/postgres`, {
    max: CONNECTIONS_PER_PROCESS,
    idleTimeoutMillis: 0,
    connectionTimeoutMillis: QUEUE_TIMEOUT_MS,
  });
  return { server, pool, session: new SessionPath(pool), users: 0 };
}

async function stopPooledServer(running: RunningServer): Promise<void> {
  await running.pool.end();
  await running.server.stop();
}

// One server and one connection per data directory in this process, shared by every Database opened on it.
const serversByDir = new Map<string, Promise<RunningServer>>();

async function acquireServer(dataDir: string): Promise<RunningServer> {
  let starting = serversByDir.get(dataDir);
  if (!starting) {
    starting = startPooledServer(dataDir);
    serversByDir.set(dataDir, starting);
    starting.catch(() => serversByDir.delete(dataDir));
  }
  const running = await starting;
  running.users += 1;
  return running;
}

async function releaseServer(dataDir: string, running: RunningServer): Promise<void> {
  running.users -= 1;
  if (running.users > 0) return;
  serversByDir.delete(dataDir);
  await stopPooledServer(running);
}

/**
 * The embedded default: PostgreSQL compiled to WebAssembly (PGlite), served over the PostgreSQL wire protocol by a
 * process of its own and queried through `pg` like a real server. With a data directory it persists there (one
 * server per directory per process, stopped when its last Database closes); without one it lives in memory and
 * each call gets a database of its own.
 */
export async function createEmbeddedDatabase(dataDir?: string): Promise<Database> {
  if (dataDir === undefined) {
    const running = await startPooledServer(undefined);
    return sessionDatabase(running, null, () => stopPooledServer(running));
  }
  const dir = path.resolve(dataDir);
  const narrowed = prepareDataDir(dir);
  if (narrowed.length > 0) {
    console.warn(`embedded database: ${narrowed.length} files and folders under ${dir} were readable by other users; they are now private to their owner`);
  }
  const running = await acquireServer(dir);
  return sessionDatabase(running, null, () => releaseServer(dir, running));
}
