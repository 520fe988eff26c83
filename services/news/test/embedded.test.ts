/** The same SQL on the embedded PGlite (with its contrib pg_trgm): every endpoint over a small catalogue. */
import { runIngestion } from "@apiplat/catalogue";
import { startService, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetSources } from "../src/ingest/datasets.js";
import service from "../src/service.js";
import { datasetsDir, huffPostRows } from "./helpers.js";

let started: StartedService;
let headers: Record<string, string>;

beforeAll(async () => {
  started = await startService(service, { embedded: true, settings: { autoLoad: false, feeds: [] }, env: { DATASETS_DIR: datasetsDir } });
  for (const source of datasetSources()) {
    const summary = await runIngestion(started.platform.deps.db, source, { datasetsDir, limit: 500, now: () => new Date() });
    expect(summary.status).toBe("succeeded");
  }
  headers = (await started.subscribe("PRO")).headers;
});
afterAll(() => started.close());

describe("news on PGlite", () => {
  it("answers every endpoint", async () => {
    const first = huffPostRows()[0];
    for (const url of ["/search?q=cofee", `/search?q=${encodeURIComponent(first.headline)}&facets=true`, "/top-headlines?country=us", "/sources", "/trending?window=30d"]) {
      const res = await started.app.inject({ method: "GET", url, headers });
      expect(res.statusCode, url).toBe(200);
    }
    const found = await started.app.inject({ method: "GET", url: `/search?q=${encodeURIComponent(`"${first.headline}"`)}`, headers });
    expect(found.json().data.articles[0].title).toBe(first.headline);
  });
});
