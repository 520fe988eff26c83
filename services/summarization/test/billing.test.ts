import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type StartedService } from "@apiplat/testing";
import service from "../src/service.js";
import { NEWS_ARTICLE } from "./fixtures.js";
import { startPageServer, type PageServer } from "./page-server.js";

let pages: PageServer;
let started: StartedService;

beforeAll(async () => {
  pages = await startPageServer();
  started = await startService(service, { env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.1/32" } });
});
afterAll(async () => {
  await started.close();
  await pages.close();
});

describe("what a BASIC subscriber is billed", () => {
  it("not the model this deployment lacks (503 MODEL_UNAVAILABLE), but the page they asked for that failed (502)", async () => {
    const { accountId, headers } = await started.subscribe("BASIC");
    const post = (url: string, payload: object) => started.app.inject({ method: "POST", url, headers, payload });

    const noModel = await post("/summarize", { text: NEWS_ARTICLE, mode: "abstractive" });
    expect(noModel.statusCode).toBe(503);
    expect(noModel.json().error.code).toBe("MODEL_UNAVAILABLE");
    expect(noModel.headers["x-ratelimit-requests-remaining"]).toBe("100");

    const theirPage = await post("/summarize/url", { url: `${pages.origin}/gone` });
    expect(theirPage.statusCode).toBe(502);
    expect(theirPage.json().error.code).toBe("UPSTREAM_ERROR");
    expect(theirPage.headers["x-ratelimit-requests-remaining"]).toBe("99");

    const summary = await post("/summarize", { text: NEWS_ARTICLE });
    expect(summary.statusCode).toBe(200);
    expect(summary.headers["x-ratelimit-requests-remaining"]).toBe("98");

    await started.app.usage.flush();
    const { rows } = await started.platform.deps.db.query<{ endpoint: string; requests: number }>(
      "SELECT endpoint, sum(requests)::int AS requests FROM usage_counts WHERE account_id = $1 GROUP BY endpoint HAVING sum(requests) > 0 ORDER BY endpoint",
      [accountId],
    );
    expect(rows).toEqual([
      { endpoint: "POST /summarize", requests: 1 },
      { endpoint: "POST /summarize/url", requests: 1 },
    ]);
  });
});
