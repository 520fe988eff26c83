import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_SETTINGS } from "../src/settings.js";
import { html, pdfBytes, TEST_SETTINGS, startSite, type TestService, type TestSite, whenBrowsersWarm } from "./helpers.js";
import { startService } from "@apiplat/testing";
import pdfService from "../src/service.js";
import { pageTexts } from "./pdf-tools.js";

/**
 * A budget small enough to reach quickly, with room for a 300 ms document on a machine busy with the whole suite (it
 * once took over 5 s there); PRO keeps room to show that the budget is per plan.
 */
const BASIC_BUDGET_MS = 8_000;

let service: TestService;
let site: TestSite;

beforeAll(async () => {
  // One page in one browser: a job that kept its page after its budget would make the next one wait.
  const settings = { ...TEST_SETTINGS, pagesPerBrowser: 1, renderBudgetMs: { ...DEFAULT_SETTINGS.renderBudgetMs, BASIC: BASIC_BUDGET_MS, PRO: 15_000 } };
  service = await whenBrowsersWarm(await startService(pdfService, { env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8" }, settings }));
  site = await startSite({ "/hang": () => undefined });
  // The first page a fresh browser opens is slow on a busy machine; it should not count against the small budget.
  expect((await service.post("/from-html", { html: html("<p>Warm</p>") }, "MEGA")).statusCode).toBe(200);
});
afterAll(async () => {
  await service?.close();
  await site?.close();
});

/** A document whose script holds the page for `ms` before it finishes loading. */
const busyFor = (ms: number) => html(`<p>Busy ${ms} ms</p><script>const end = Date.now() + ${ms}; while (Date.now() < end);</script>`);

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await work();
  return { result, ms: Date.now() - started };
}

describe("render budget per plan", () => {
  test("a document that needs less than the plan's budget renders", async () => {
    const res = await service.post("/from-html", { html: busyFor(300), javascript: true }, "BASIC");
    expect(res.statusCode).toBe(200);
    expect(pageTexts(pdfBytes(res))[0]).toContain("Busy 300 ms");
  });

  test("one that needs more is stopped at the budget with a 422 naming it, and the page is freed at once", async () => {
    // A script that would hold the page 12 s: far enough past the 8 s budget that a busy machine's slower stop still shows.
    const { result: res, ms } = await timed(() => service.ask("/from-html", { html: busyFor(12_000), javascript: true, timeout_ms: 30_000 }, "BASIC"));
    expect(res.status).toBe(422);
    expect(res.error).toEqual({
      code: "UNPROCESSABLE",
      message: `Rendering was stopped at the BASIC plan's render budget of ${BASIC_BUDGET_MS} ms; timeout_ms cannot raise it. Make the document or page lighter, or move to PRO (a budget of 15000 ms).`,
    });
    expect(ms).toBeGreaterThanOrEqual(BASIC_BUDGET_MS);
    // Had the job not been stopped, its script alone would have held the page for 12 s.
    expect(ms).toBeLessThan(12_000);
    // The only page is free again: the next job does not wait for the busy script to end.
    const { result: next, ms: nextMs } = await timed(() => service.post("/from-html", { html: html("<p>Next job</p>") }, "BASIC"));
    expect(next.statusCode).toBe(200);
    expect(nextMs).toBeLessThan(2_000);
  });

  test("the same document fits the larger budget of another plan", async () => {
    const res = await service.post("/from-html", { html: busyFor(10_000), javascript: true }, "PRO");
    expect(res.statusCode).toBe(200);
  });

  test("a page that never arrives is a 504 at the budget", async () => {
    const { result: res, ms } = await timed(() => service.ask("/from-url", { url: `${site.origin}/hang`, wait_until: "load" }, "BASIC"));
    expect(res.status).toBe(504);
    expect(res.error).toEqual({
      code: "UPSTREAM_TIMEOUT",
      message: `Rendering was stopped at the BASIC plan's render budget of ${BASIC_BUDGET_MS} ms; timeout_ms cannot raise it. Make the document or page lighter, or move to PRO (a budget of 15000 ms).`,
    });
    expect(ms).toBeLessThan(BASIC_BUDGET_MS + 2_000);
  });

  test("a timeout_ms below the budget is the caller's own timeout, said as such", async () => {
    const res = await service.ask("/from-url", { url: `${site.origin}/hang`, wait_until: "load", timeout_ms: 1_000 }, "BASIC");
    expect(res.status).toBe(504);
    expect(res.error.message).not.toContain("budget");
  });
});
