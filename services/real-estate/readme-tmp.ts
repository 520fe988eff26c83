import { writeFileSync } from "node:fs";
import { runIngestion } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import { startService } from "@apiplat/testing";
import { datasetSources } from "./src/ingest/datasets.js";
import service from "./src/service.js";
const started = await startService(service, { settings: { autoLoad: false } });
for (const s of datasetSources()) await runIngestion(started.platform.deps.db, s, { datasetsDir: loadConfig(process.env).datasetsDir, now: () => new Date() });
const { headers } = await started.subscribe("PRO");
const out: Record<string, unknown> = {};
for (const url of [
  "/search?lat=47.6101&lon=-122.3421&radius_km=1&bedrooms=2&limit=2",
  "/search?city=Sacramento&property_type=condo&max_price=100000&sort=price_asc&limit=1&facets=true",
  "/property/kc-7129300520-20141013",
  "/property/nyc-" ,
  "/estimate?lat=47.6101&lon=-122.3421&sqft=1800&bedrooms=3&bathrooms=2&year_built=1985",
  "/estimate?address=3526%20High%20St%2C%20Sacramento%2C%20CA%2095838",
  "/estimate?address=3526%20Hihg%20St",
  "/search?lat=38.5&radius_km=3",
  "/sources",
]) {
  let u = url;
  if (u === "/property/nyc-") {
    const r = await started.app.inject({ method: "GET", url: "/search?market=new-york&property_type=condo&city=Brooklyn&sort=price_asc&limit=1", headers });
    u = `/property/${r.json().data.properties[0].id}`;
  }
  const res = await started.app.inject({ method: "GET", url: u, headers });
  out[u] = res.json();
}
writeFileSync("/tmp/avm/responses.json", JSON.stringify(out, null, 2));
await started.close();
