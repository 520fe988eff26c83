import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";

const POSTGRES_ROOT = "/usr/lib/postgresql";
const SUPERUSER = "postgres";
const DATABASE = "postgres";
// Names the socket file (.s.PGSQL.5432); no TCP port is opened (listen_addresses is empty).
const SOCKET_PORT = 5432;
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;

/**
 * The server's settings, passed on its command line so that a data folder from an older checkout gets them too.
 * max_wal_size bounds pg_wal: a checkpoint starts before that much WAL has been written since the last one, and
 * segments older than the checkpoint are recycled or removed (min_wal_size is what is kept for reuse).
 * max_connections: each of the ~20 processes pools up to 10 connections.
 */
export const LOCAL_POSTGRES_SETTINGS: Readonly<Record<string, string>> = {
  listen_addresses: "",
  max_connections: "250",
  shared_buffers: "64MB",
  max_wal_size: "96MB",
  min_wal_size: "32MB",
  checkpoint_timeout: "5min",
  wal_keep_size: "0",
  // Crash safety: a COMMIT is acknowledged only once its WAL is on disk.
  fsync: "on",
  synchronous_commit: "on",
  full_page_writes: "on",
  logging_collector: "off",
};

// What of the server's log reaches the terminal: problems, and crash recovery (not the routine start and stop).
const WORTH_SHOWING = /\b(WARNING|ERROR|FATAL|PANIC):|was interrupted|not properly shut down|redo (starts|done)/;
const ROUTINE = /the database system is (starting up|shutting down)/;

export interface LocalPostgresOptions {
  /** Holds `postgres/` (the data) and `postgres-socket/` (the server's only way in). */
  dataRoot: string;
  /** Server log lines (warnings and worse) and start/stop notes. */
  log?: (line: string) => void;
  settings?: Record<string, string>;
}

export interface LocalPostgres {
  /** A DATABASE_URL reaching the server over its Unix socket. */
  url: string;
  dataDir: string;
  socketDir: string;
  /** The postmaster's process id. */
  pid: number;
  /** Fast shutdown (sessions ended, a clean checkpoint), SIGKILL only if it has not stopped in 30 s. */
  stop(): Promise<void>;
}

/** The newest PostgreSQL installed from Debian's packages (postgresql-<major>), or an error saying what to install. */
export function postgresBinDir(): string {
  const majors = existsSync(POSTGRES_ROOT)
    ? readdirSync(POSTGRES_ROOT)
        .filter((name) => /^\d+$/.test(name) && existsSync(path.join(POSTGRES_ROOT, name, "bin/postgres")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0) {
    throw new Error(
      `The local database needs PostgreSQL's server (${POSTGRES_ROOT}/<version>/bin/postgres was not found): ` +
        "run `bash scripts/bootstrap.sh start` (it installs the Debian package postgresql), or set DATABASE_URL to a server of your own.",
    );
  }
  return path.join(POSTGRES_ROOT, majors[0], "bin");
}

interface ServerUser {
  /** Arguments put before a server command to run it as this user (empty: the current one). */
  prefix: string[];
  uid: number;
  gid: number;
}

/** PostgreSQL refuses to run as root: then its processes run as the `postgres` user the Debian package creates. */
function serverUser(): ServerUser {
  const uid = process.getuid?.() ?? 0;
  if (uid !== 0) return { prefix: [], uid, gid: process.getgid?.() ?? 0 };
  const entry = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((line) => line.startsWith(`${SUPERUSER}:`));
  if (!entry)
    throw new Error("Running as root, the local database needs the system user postgres (created by the Debian package postgresql) to run its server.");
  const [, , uidText, gidText] = entry.split(":");
  return { prefix: ["setpriv", "--reuid", SUPERUSER, "--regid", SUPERUSER, "--init-groups"], uid: Number(uidText), gid: Number(gidText) };
}

/** A folder only the server's user may enter; as root, every folder above it must let that user pass through. */
function privateDir(dir: string, user: ServerUser): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stats = statSync(dir);
  if (stats.uid !== user.uid) {
    if (process.getuid?.() !== 0) throw new Error(`${dir} belongs to user id ${stats.uid}, not to this user (${user.uid}): run the platform as its owner.`);
    chownSync(dir, user.uid, user.gid);
  }
  chmodSync(dir, 0o700);
}

function ensureTraversable(dataRoot: string, user: ServerUser): void {
  if (user.prefix.length === 0) return;
  // .data itself: enter-only for others (its other files keep their own private modes).
  chmodSync(dataRoot, statSync(dataRoot).mode | 0o011);
  for (let dir = path.dirname(dataRoot); ; dir = path.dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) {
      throw new Error(
        `The local database runs as the user postgres (PostgreSQL refuses root), which cannot enter ${dir}: move the checkout somewhere others may enter, or set DATABASE_URL.`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

function runChecked(command: string[], what: string): void {
  const result = spawnSync(command[0], command.slice(1), { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`${what} failed (exit ${result.status ?? result.signal}): ${(result.stderr || result.stdout || String(result.error ?? "")).trim()}`);
  }
}

function initialize(binDir: string, dataDir: string, user: ServerUser): void {
  if (existsSync(path.join(dataDir, "PG_VERSION"))) return;
  // A folder left by an initdb that was interrupted is empty or partial: start over.
  rmSync(dataDir, { recursive: true, force: true });
  privateDir(dataDir, user);
  runChecked(
    [...user.prefix, path.join(binDir, "initdb"), "-D", dataDir, "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-instructions"],
    "Initializing the local database (initdb)",
  );
}

/**
 * A postmaster.pid, or the socket's lock file, left by a server killed with SIGKILL names a process that is gone, and
 * PostgreSQL starts over it by itself. It refuses when that process id is still taken: by a live process of the same
 * user (ids are reused), or by the killed server itself until its new parent has reaped it. Unless that process is a
 * running postgres on this folder, the stale file is removed.
 */
function removeStaleLockFile(lockFile: string, dataDir: string): void {
  if (!existsSync(lockFile)) return;
  const pid = Number(readFileSync(lockFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  let commandLine: string;
  let state: string;
  try {
    commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    state = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "")[0];
  } catch {
    return;
  }
  const running = state !== "Z" && state !== "X";
  const isOurServer = running && commandLine.split("\0")[0].endsWith("postgres") && commandLine.includes(dataDir);
  if (isOurServer) throw new Error(`The local database in ${dataDir} is already running (process ${pid}): stop the other \`npm start\` first.`);
  rmSync(lockFile);
}

async function waitUntilReady(url: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(`The local database did not start (exit ${server.exitCode ?? server.signalCode}): ${output().trim()}`);
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      // Crash recovery runs before connections are accepted, so this answers only once every commit is back.
      await client.query("SELECT 1");
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`The local database did not accept connections within ${START_TIMEOUT_MS / 1000} s: ${output().trim()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function serverArgs(dataDir: string, socketDir: string, settings: Record<string, string>): string[] {
  const all = { ...LOCAL_POSTGRES_SETTINGS, ...settings, port: String(SOCKET_PORT), unix_socket_directories: socketDir };
  return ["-D", dataDir, ...Object.entries(all).flatMap(([name, value]) => ["-c", `${name}=${value}`])];
}

/**
 * Initializes (first start only) and runs a PostgreSQL server with its data in `<dataRoot>/postgres`, reachable only
 * through a Unix socket in `<dataRoot>/postgres-socket` (a folder private to the server's user). The server gets
 * SIGINT (fast shutdown) if this process dies without stopping it.
 */
export async function startLocalPostgres(options: LocalPostgresOptions): Promise<LocalPostgres> {
  const log = options.log ?? ((line) => console.error(line));
  const binDir = postgresBinDir();
  const dataRoot = path.resolve(options.dataRoot);
  const dataDir = path.join(dataRoot, "postgres");
  const socketDir = path.join(dataRoot, "postgres-socket");
  if (socketDir.length + "/.s.PGSQL.5432".length > 107)
    throw new Error(`The local database's socket path under ${socketDir} is longer than Unix sockets allow (107 bytes): use a shorter checkout path.`);
  const user = serverUser();
  mkdirSync(dataRoot, { recursive: true, mode: 0o700 });
  ensureTraversable(dataRoot, user);
  initialize(binDir, dataDir, user);
  privateDir(dataDir, user);
  privateDir(socketDir, user);
  removeStaleLockFile(path.join(dataDir, "postmaster.pid"), dataDir);
  removeStaleLockFile(path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}.lock`), dataDir);

  const url = localPostgresUrl(dataRoot);
  const command = [
    "setpriv",
    ...user.prefix.slice(1),
    "--pdeathsig",
    "INT",
    "--",
    path.join(binDir, "postgres"),
    ...serverArgs(dataDir, socketDir, options.settings ?? {}),
  ];
  // Its own process group: a Ctrl-C in the terminal reaches the supervisor, which stops the database last.
  const server = spawn(command[0], command.slice(1), { stdio: ["ignore", "ignore", "pipe"], detached: true });
  let recent = "";
  server.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    recent = (recent + chunk).slice(-4000);
    for (const line of chunk.split("\n")) if (WORTH_SHOWING.test(line) && !ROUTINE.test(line)) log(`postgres: ${line}`);
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  void exited.then(() => {
    if (!stopping) log(`postgres: the local database stopped unexpectedly (exit ${server.exitCode ?? server.signalCode})`);
  });
  try {
    await waitUntilReady(url, server, () => recent);
  } catch (error) {
    server.kill("SIGKILL");
    throw error;
  }
  return {
    url,
    dataDir,
    socketDir,
    pid: server.pid!,
    async stop() {
      stopping = true;
      if (server.exitCode !== null || server.signalCode !== null) return;
      server.kill("SIGINT");
      const timer = setTimeout(() => server.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The DATABASE_URL of the local database kept in `dataRoot` (its Unix socket). */
export function localPostgresUrl(dataRoot: string): string {
  const socketDir = path.join(path.resolve(dataRoot), "postgres-socket");
  return `postgresql://${SUPERUSER}@/${DATABASE}?host=${encodeURIComponent(socketDir)}&port=${SOCKET_PORT}`;
}

/**
 * The local database for a command run beside `npm start` (ingestion, say): the running server when it answers on
 * its socket (stop() then leaves it running), else one started for the command.
 */
export async function useLocalPostgres(options: LocalPostgresOptions): Promise<Pick<LocalPostgres, "url" | "stop">> {
  const url = localPostgresUrl(options.dataRoot);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.end();
    return { url, stop: async () => {} };
  } catch {
    await client.end().catch(() => {});
    return startLocalPostgres(options);
  }
}
