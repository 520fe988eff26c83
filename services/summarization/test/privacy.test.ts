import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, startService, type StartedService, type TestPlatform, type TestSubscriber } from "@apiplat/testing";
import service from "../src/service.js";
import { NEWS_ARTICLE } from "./fixtures.js";
import { startPageServer, type PageServer } from "./page-server.js";

/** A word that occurs nowhere but in what the tests send and serve. */
const MARKER = `Zorblax${randomBytes(4).toString("hex")}`;
const lines: string[] = [];
let platform: TestPlatform;
let started: StartedService;
let caller: TestSubscriber;
let pages: PageServer;

beforeAll(async () => {
  pages = await startPageServer(MARKER);
  platform = await createTestPlatform({ env: { LOG_LEVEL: "debug", OUTBOUND_ALLOW_CIDRS: "127.0.0.1/32" } });
  platform.deps.logStream = { write: (line: string) => void lines.push(line) };
  started = await startService(service, { platform });
  caller = await started.subscribe("PRO");
});
afterAll(async () => {
  await started.close();
  await platform.close();
  await pages.close();
});

const secretText = `${NEWS_ARTICLE} The secret code name of the project is ${MARKER} and nobody may know it.`;

describe("privacy: inputs are never logged or stored", () => {
  it("keeps request text and fetched pages out of the logs at debug level and out of the database", async () => {
    const calls: [string, object][] = [
      ["/summarize", { text: secretText, style: "formal" }],
      ["/summarize", { text: secretText, url: `${pages.origin}/article` }],
      ["/summarize/url", { url: `${pages.origin}/article`, min_length: 10, max_length: 10 }],
      ["/summarize/url", { url: `${pages.origin}/report.pdf`, min_length: 10, max_length: 10 }],
      ["/summarize/url", { url: `${pages.origin}/moved?ref=${MARKER}` }],
      ["/bullet-points", { text: secretText, count: 10 }],
      ["/summarize", { text: secretText.split(". ").slice(-10).join(". "), min_length: 10, max_length: 10 }],
      ["/keywords", { text: secretText, top_n: 50 }],
      ["/summarize/long", { text: `${secretText}\n\n${secretText}` }],
      // Errors: the 413, a validation failure, the 503, a page that is missing and a redirect the guard refuses.
      ["/summarize", { text: `${secretText} ${"filler ".repeat(5_000)}` }],
      ["/summarize", { text: secretText, style: MARKER }],
      ["/summarize", { text: secretText, mode: "abstractive" }],
      ["/summarize/url", { url: `${pages.origin}/${MARKER}` }],
      ["/summarize/url", { url: `http://127.0.0.1:${pages.port}/to-unspecified?${MARKER}` }],
    ];
    const statuses: number[] = [];
    for (const [url, payload] of calls) {
      const res = await started.app.inject({ method: "POST", url, headers: caller.headers, payload });
      statuses.push(res.statusCode);
      // The marker did reach the service: answers that return every sentence carry it back.
      if ("max_length" in payload) expect(res.body, url).toContain(MARKER);
    }
    // A body that is not JSON (Node's JSON.parse quotes the text it choked on).
    const broken = await started.app.inject({
      method: "POST",
      url: "/summarize",
      headers: { ...caller.headers, "content-type": "application/json" },
      payload: `{"text": ${MARKER} broken`,
    });
    statuses.push(broken.statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 413, 400, 503, 502, 400, 400]);

    await started.app.usage.flush();
    // The logs were written, at debug level, and none of them holds the marker.
    expect(lines.length).toBeGreaterThan(20);
    expect(started.app.log.level).toBe("debug");
    expect(lines.some((line) => JSON.parse(line).msg === "incoming request")).toBe(true);
    const leaked = lines.filter((line) => line.includes(MARKER));
    expect(leaked).toEqual([]);

    // Nothing in any table of this test's schema holds it either (the platform's own tables: keys, usage).
    const { rows: tables } = await platform.deps.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
    );
    expect(tables.length).toBeGreaterThan(0);
    let usageRows = 0;
    for (const { table_name } of tables) {
      const { rows } = await platform.deps.db.query<{ hits: number; total: number }>(
        `SELECT count(*) FILTER (WHERE CAST(t AS text) LIKE $1)::int AS hits, count(*)::int AS total FROM "${table_name}" t`,
        [`%${MARKER}%`],
      );
      expect(rows[0]!.hits, table_name).toBe(0);
      if (table_name.includes("usage")) usageRows += rows[0]!.total;
    }
    expect(usageRows).toBeGreaterThan(0);
  });
});
