/**
 * The search-results service for the relevance evaluation, in a process of its own, on the platform of
 * bench/lib/catalogue-bench.ts: every dataset loaded once, then one app per title
 * boost of BENCH_TITLE_BOOSTS (comma-separated; default: the service's setting) and matching of BENCH_MATCHES
 * (any,all) over that one index. Prints {"servers":[{"title_boost","match","port"}],"headers","ingest"} once listening.
 */
import { buildService } from "@apiplat/service-kit";
import { benchPlatform, ingestForBench, serveForBench } from "../lib/catalogue-bench.js";
import { datasetSources } from "../../services/search-results/src/ingest/datasets.js";
import service from "../../services/search-results/src/service.js";
import { readSettings } from "../../services/search-results/src/settings.js";

const platform = await benchPlatform();
const base = readSettings(process.env);
const boosts = process.env.BENCH_TITLE_BOOSTS ? process.env.BENCH_TITLE_BOOSTS.split(",").map(Number) : [base.titleBoost];
const matches = process.env.BENCH_MATCHES ? process.env.BENCH_MATCHES.split(",") : [base.anyWord ? "any" : "all"];
const variants = boosts.flatMap((titleBoost) => matches.map((match) => ({ titleBoost, match })));
const apps = [];
for (const { titleBoost, match } of variants) {
  apps.push(await buildService(service, platform.deps, { settings: { ...base, autoLoad: false, titleBoost, anyWord: match === "any" } }));
}
const { ingest } = await ingestForBench(service, platform, datasetSources());
const { headers } = await platform.subscribe("search-results", "MEGA");
await serveForBench(platform, apps, (ports) => ({
  servers: variants.map(({ titleBoost, match }, i) => ({ title_boost: titleBoost, match, port: ports[i] })),
  headers,
  ingest,
}));
