/**
 * The product-data service for the latency benchmark, in a process of its own (pinned to core 0 by latency.ts), on
 * the platform of bench/lib/catalogue-bench.ts. Ingests both files in full (the
 * derived review aggregates, vocabulary and VACUUM ANALYZE included), samples ASINs for /product and /reviews, and
 * prints {"port","headers","ingest","asins"} once listening.
 */
import service, { ingestion } from "@apiplat/product-data";
import { buildService } from "@apiplat/service-kit";
import { benchPlatform, ingestForBench, serveForBench } from "../lib/catalogue-bench.js";

const platform = await benchPlatform();
const app = await buildService(service, platform.deps, { settings: { autoLoad: false } });
const { db, ingest } = await ingestForBench(service, platform, ingestion.sources({ config: platform.deps.config, options: {} }));
const sample = async (sql: string) => (await db.query<{ asin: string }>(sql)).rows.map((r) => r.asin);
const asins = {
  ca: await sample("SELECT asin FROM products WHERE locale = 'CA' ORDER BY md5(asin) LIMIT 200"),
  reviewed: await sample("SELECT asin FROM products WHERE review_count > 0 ORDER BY md5(asin) LIMIT 200"),
};
const { headers } = await platform.subscribe("product-data", "MEGA");
await serveForBench(platform, [app], ([port]) => ({ port, headers, ingest, asins }));
