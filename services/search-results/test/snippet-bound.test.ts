/**
 * A snippet is made from the words of a page's first 16 KiB (SNIPPET_TEXT_UNITS), over HTTP on pages built for the
 * edge: a matched word whose last letter is the bound's last code unit is shown and highlighted; the same word one
 * code unit later runs past the bound, so the page's snippet is its opening, though the page is found.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runIngestion } from "@apiplat/catalogue";
import { startService, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { peopleSource } from "../src/ingest/datasets.js";
import service from "../src/service.js";

const BOUND = 16 * 1024;
// "fillers " is 8 code units: 2,047 of them end at 16,376, and "zeppelin" (8) ends at 16,384, the bound's last unit.
const inside = `${"fillers ".repeat(2047)}zeppelin ${"after ".repeat(20)}`;
// One unit later: "zeppelin" starts at 16,377 and ends at 16,385.
const outside = `${"padding ".repeat(2046)}paddings zeppelin ${"after ".repeat(20)}`;

let datasetsDir: string;
let started: StartedService;
let headers: Record<string, string>;

beforeAll(async () => {
  expect(inside.indexOf("zeppelin") + "zeppelin".length).toBe(BOUND);
  expect(outside.indexOf("zeppelin") + "zeppelin".length).toBe(BOUND + 1);
  datasetsDir = mkdtempSync(path.join(tmpdir(), "snippet-bound-"));
  mkdirSync(path.join(datasetsDir, "search-results/web"), { recursive: true });
  writeFileSync(
    path.join(datasetsDir, "search-results/web/people_wiki_sample.csv"),
    `URI,name,text\n<http://dbpedia.org/resource/Inside_Edge>,Inside Edge,${inside}\n<http://dbpedia.org/resource/Outside_Edge>,Outside Edge,${outside}\n`,
  );
  started = await startService(service, { settings: { autoLoad: false }, env: { DATASETS_DIR: datasetsDir } });
  const summary = await runIngestion(started.platform.deps.db, peopleSource(), { datasetsDir, now: () => new Date() });
  expect(summary).toMatchObject({ status: "succeeded", inserted: 2 });
  headers = (await started.subscribe("PRO")).headers;
});
afterAll(async () => {
  await started?.close();
  if (datasetsDir) rmSync(datasetsDir, { recursive: true, force: true });
});

describe("GET /search snippets from a page's first 16 KiB", () => {
  it("highlights a match ending on the bound's last code unit, and shows the opening when the match runs one past it", async () => {
    const res = await started.app.inject({ method: "GET", url: "/search?q=zeppelin", headers });
    expect(res.statusCode).toBe(200);
    const results = res.json().data.organic_results as { title: string; snippet: string; snippet_highlighted_words: string[] }[];
    expect(results.map((r) => r.title).sort()).toEqual(["Inside Edge", "Outside Edge"]);
    const byTitle = Object.fromEntries(results.map((r) => [r.title, r]));
    // The fragment ends at the bound: the 29 words before the match, and none of the "after" words past it.
    expect(byTitle["Inside Edge"]).toMatchObject({ snippet: `${"fillers ".repeat(29)}zeppelin`, snippet_highlighted_words: ["zeppelin"] });
    expect(byTitle["Outside Edge"]).toMatchObject({ snippet: Array(15).fill("padding").join(" "), snippet_highlighted_words: [] });
  });
});
