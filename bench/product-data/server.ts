/**
 * The product-data service for the latency benchmark, in a process of its own (pinned to core 0 by latency.ts): a
 * fresh test platform (a schema of its own on PostgreSQL, or an in-memory PGlite with BENCH_EMBEDDED=1), both files
 * ingested in full (rows per second, the derived review aggregates, vocabulary and VACUUM ANALYZE included), gateway
 * auth and metering on, per-second limits off. Prints {"port","headers","ingest","asins"} once listening; stops on
 * SIGTERM.
 */
import { runIngestion } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import service, { ingestion } from "@apiplat/product-data";
import { buildService, serviceDatabase } from "@apiplat/service-kit";
import { createTestPlatform } from "@apiplat/testing";

const datasetsDir = loadConfig(process.env).datasetsDir;
const platform = await createTestPlatform({
  embedded: process.env.BENCH_EMBEDDED === "1",
  env: { RATE_LIMITS: "off", METERING_FLUSH_MS: "2000", LOG_LEVEL: "silent", DATASETS_DIR: datasetsDir },
});
const app = await buildService(service, platform.deps, { settings: { autoLoad: false } });
const db = await serviceDatabase(service, platform.deps.db);
const ingest = [];
for (const source of ingestion.sources({ config: platform.deps.config, options: {} })) {
  const run = await runIngestion(db, source, { datasetsDir, now: () => new Date() });
  if (run.status !== "succeeded") throw new Error(`${source.name}: ${run.error}`);
  ingest.push({ source: source.name, rows: run.rows_read, seconds: (run.finished_at.getTime() - run.started_at.getTime()) / 1000, rows_per_second: run.rows_per_second });
}
const sample = async (sql: string) => (await db.query<{ asin: string }>(sql)).rows.map((r) => r.asin);
const asins = {
  ca: await sample("SELECT asin FROM products WHERE locale = 'CA' ORDER BY md5(asin) LIMIT 200"),
  reviewed: await sample("SELECT asin FROM products WHERE review_count > 0 ORDER BY md5(asin) LIMIT 200"),
};
const { headers } = await platform.subscribe("product-data", "MEGA");
await app.listen({ host: "127.0.0.1", port: 0 });
const { port } = app.server.address() as { port: number };
console.log(JSON.stringify({ port, headers, ingest, asins }));
process.once("SIGTERM", async () => {
  await app.close();
  await platform.close();
  process.exit(0);
});
