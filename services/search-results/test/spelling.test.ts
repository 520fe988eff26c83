/**
 * Spelling over an index of our own making, so that how many pages hold each word is known exactly: a word no page
 * holds is corrected, a word some page holds is searched as written, and a rare misspelling (no English word) of a
 * common word gets a "Did you mean".
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runIngestion } from "@apiplat/catalogue";
import { startService, type StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coffeeSource } from "../src/ingest/datasets.js";
import service from "../src/service.js";

const datasetsDir = mkdtempSync(path.join(tmpdir(), "search-results-spelling-"));
mkdirSync(path.join(datasetsDir, "search-results/web"), { recursive: true });
const question = (id: number, title: string, body: string) =>
  `  <row Id="${id}" PostTypeId="1" CreationDate="2015-01-27T20:09:32.720" Body="&lt;p&gt;${body}&lt;/p&gt;" Title="${title}" Tags="&lt;python&gt;" />`;
const rows = [
  question(1, "Reading comprehension of a python list", "A list comprehension builds a python list."),
  question(2, "One cofee a day", "Is one cofee enough?"),
  ...Array.from({ length: 25 }, (_, i) => question(10 + i, `Comprehensive coffee guide ${i}`, "A comprehensive guide to coffee and its list of roasts.")),
];
writeFileSync(
  path.join(datasetsDir, "search-results/web/stackexchange_coffee_Posts.xml"),
  ['<?xml version="1.0" encoding="utf-8"?>', "<posts>", ...rows, "</posts>"].join("\n"),
);

let started: StartedService;
let headers: Record<string, string>;
beforeAll(async () => {
  started = await startService(service, { settings: { autoLoad: false }, env: { DATASETS_DIR: datasetsDir } });
  const run = await runIngestion(started.platform.deps.db, coffeeSource(), { datasetsDir, now: () => new Date() });
  expect(run.status).toBe("succeeded");
  headers = (await started.subscribe("PRO")).headers;
});
afterAll(() => started.close());

const information = async (q: string) =>
  (await started.app.inject({ method: "GET", url: `/search?q=${encodeURIComponent(q)}`, headers })).json().data.search_information;

describe("spelling", () => {
  it("never changes a query whose words all exist, however rare one of them is", async () => {
    // comprehension: one page; comprehensive: 25. Both English words. Every page has the tag python (any word matches).
    expect(await information("python list comprehension")).toMatchObject({ showing_results_for: null, spelling_fix: null, total_results: 27 });
    // Stemmed, comprehension also finds the comprehensive guides: 26 pages.
    expect(await information("comprehension")).toMatchObject({ showing_results_for: null, spelling_fix: null, total_results: 26 });
  });

  it("suggests, without searching it, a common look-alike of a rare word that is no English word", async () => {
    expect(await information("cofee")).toMatchObject({ showing_results_for: null, spelling_fix: "coffee", total_results: 1 });
  });

  it("corrects a word no page holds to the closest word of the index", async () => {
    // English stemming makes comprehensive and comprehension one word (comprehens): 25 pages and 1.
    expect(await information("comprehensiv")).toMatchObject({ showing_results_for: "comprehensive", spelling_fix: null, total_results: 26 });
  });
});
