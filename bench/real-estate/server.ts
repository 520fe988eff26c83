/**
 * The real-estate service for the latency benchmark, in a process of its own (pinned to core 0 by latency.ts), on
 * the platform of bench/lib/catalogue-bench.ts. Loads the three full datasets first
 * and prints {"port","headers","ingest"} once listening.
 */
import { buildService } from "@apiplat/service-kit";
import { benchPlatform, ingestForBench, serveForBench } from "../lib/catalogue-bench.js";
import { datasetSources } from "../../services/real-estate/src/ingest/datasets.js";
import service from "../../services/real-estate/src/service.js";

const platform = await benchPlatform();
const app = await buildService(service, platform.deps, { settings: { autoLoad: false } });
const { ingest } = await ingestForBench(service, platform, datasetSources());
const { headers } = await platform.subscribe("real-estate", "MEGA");
await serveForBench(platform, [app], ([port]) => ({ port, headers, ingest }));
