/**
 * The company-data service for the latency benchmark, in a process of its own (pinned to core 0 by latency.ts), on
 * the platform of bench/lib/catalogue-bench.ts. Loads every dataset first (timing
 * each source; the profile merge runs once, after the last, and counts in its time and the total) and prints
 * {"port","headers","ingest","total"} once listening.
 */
import { buildService } from "@apiplat/service-kit";
import { benchPlatform, ingestForBench, serveForBench } from "../lib/catalogue-bench.js";
import { datasetSources } from "../../services/company-data/src/ingest/datasets.js";
import service from "../../services/company-data/src/service.js";

const platform = await benchPlatform();
const app = await buildService(service, platform.deps, { settings: { autoLoad: false, secUserAgent: null } });
const { ingest, total } = await ingestForBench(service, platform, datasetSources());
const { headers } = await platform.subscribe("company-data", "MEGA");
await serveForBench(platform, [app], ([port]) => ({ port, headers, ingest, total }));
