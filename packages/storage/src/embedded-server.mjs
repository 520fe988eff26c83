/**
 * The embedded PostgreSQL's own process, started by embedded.ts: PGlite behind the PostgreSQL wire protocol on
 * 127.0.0.1 and an ephemeral port, so that no query runs on a service's event loop.
 * Plain JavaScript so that Node runs it as it is, whatever loader (tsx, vitest) started the platform.
 *
 * argv: [dataDir or "" for memory, maxConnections]. Reports { type: "listening", port } or { type: "failed", message }
 * over IPC; stops on { type: "stop" } or when the platform's process goes away.
 */
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

// Every file and folder PGlite creates is the owner's alone (PGlite's file system writes with default modes).
process.umask(0o077);
// Ctrl-C reaches the whole process group: the platform decides when the database stops, after flushing into it.
process.on("SIGINT", () => {});
process.on("SIGTERM", () => {});

const [dataDir, maxConnections] = process.argv.slice(2);
let db;
let server;
let stopping;

function stop() {
  stopping ??= (async () => {
    await server?.stop().catch(() => {});
    await db?.close().catch(() => {});
    process.exit(0);
  })();
  return stopping;
}

process.on("message", (message) => {
  if (message?.type === "stop") void stop();
});
process.on("disconnect", () => void stop());

try {
  // The extensions PGlite loads: a real server ships them as contrib, and migrations' CREATE EXTENSION works on
  // PGlite only for one loaded here. pg_trgm: typo-tolerant and prefix search (the catalogue services).
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  db = await PGlite.create(dataDir || undefined, { extensions: { pg_trgm } });
  server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: Number(maxConnections) });
  const listening = new Promise((resolve) => server.addEventListener("listening", (event) => resolve(event.detail.port)));
  await server.start();
  process.send({ type: "listening", port: await listening });
} catch (error) {
  process.send({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
