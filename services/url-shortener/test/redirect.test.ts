import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestOverHttp, type HttpAnswer, type TestSubscriber } from "@apiplat/testing";
import { startService, type StartedService } from "@apiplat/testing";
import service from "../src/service.js";
import { CHROME_WINDOWS, GOOGLEBOT, SAFARI_IPHONE, SHORT_HOST, movableClock, putFallback, TEST_SETTINGS } from "./helpers.js";

let h: StartedService;
const clock = movableClock();
let owner: TestSubscriber;

beforeAll(async () => {
  h = await startService(service, { now: clock.now, settings: { ...TEST_SETTINGS, trustedProxyHops: 1 } });
  owner = await h.platform.subscribe("url-shortener", "MEGA");
});
afterAll(async () => h?.close());

/**
 * Stats of the known click set both recording paths are tested with: three visits from a desktop Chrome in GB with a
 * referrer, one from an iPhone in DE, one from Googlebot.
 */
const KNOWN_CLICKS_STATS = {
  total_hits: 4,
  unique_visitors: 2,
  bot_hits: 1,
  referrers: [
    { value: "news.example", count: 3 },
    { value: "direct", count: 1 },
  ],
  countries: [
    { value: "GB", count: 3 },
    { value: "DE", count: 1 },
  ],
  device_types: [
    { value: "desktop", count: 3 },
    { value: "mobile", count: 1 },
  ],
};

async function create(payload: Record<string, unknown>, subscriber = owner): Promise<string> {
  const res = await h.app.inject({ method: "POST", url: "/shorten", headers: subscriber.headers, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.code;
}

function visit(code: string, headers: Record<string, string> = {}, remoteAddress = "203.0.113.7") {
  return h.app.inject({ method: "GET", url: `/${code}`, headers: { host: SHORT_HOST, "user-agent": CHROME_WINDOWS, ...headers }, remoteAddress });
}

describe("GET /{code}", () => {
  it("redirects with 302 by default and 301 when asked, without gateway headers", async () => {
    const temporary = await create({ url: "https://example.com/target?x=1" });
    const res = await visit(temporary);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("https://example.com/target?x=1");
    expect(res.headers["cache-control"]).toBe("private, no-cache");
    const permanent = await create({ url: "https://example.com/forever", redirect_type: 301 });
    const moved = await visit(permanent);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe("https://example.com/forever");
    expect(moved.headers["cache-control"]).toBe("private, max-age=3600");
  });

  it("matches the code's exact letter case", async () => {
    const code = await create({ url: "https://example.com/case", alias: "CaseSensitive" });
    expect((await visit(code)).statusCode).toBe(302);
    expect((await visit("casesensitive", { accept: "application/json" })).statusCode).toBe(404);
  });

  it("answers an unknown code with the JSON envelope for API clients and an HTML page for browsers", async () => {
    const json = await visit("NoSuchCode1", { accept: "application/json" });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toMatchObject({ status: "error", error: { code: "NOT_FOUND", message: "There is no active short link with the code NoSuchCode1." } });
    const html = await visit("NoSuchCode1", { accept: "text/html,application/xhtml+xml" });
    expect(html.statusCode).toBe(404);
    expect(html.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(html.body).toContain("<h1>This short link does not exist or no longer works</h1>");
  });

  it("stops at expires_at exactly: the millisecond before redirects, the instant itself does not", async () => {
    const expiresAt = Date.now() + 3_600_000;
    const code = await create({ url: "https://example.com/until", expires_at: new Date(expiresAt).toISOString() });
    try {
      clock.frozenAt = expiresAt - 1;
      expect((await visit(code)).statusCode).toBe(302);
      clock.frozenAt = expiresAt;
      const after = await visit(code, { accept: "application/json" });
      expect(after.statusCode).toBe(404);
    } finally {
      clock.frozenAt = null;
    }
    const state = await h.app.inject({ method: "GET", url: `/resolve/${code}`, headers: owner.headers });
    expect(state.json().data.state).toBe("active");
  });

  it("lets exactly max_clicks visits through; the last one reaches the target, the next goes to the link's fallback", async () => {
    const code = await create({ url: "https://example.com/limited", max_clicks: 3, fallback_url: "https://example.com/sold-out" });
    for (let i = 1; i <= 3; i++) {
      const res = await visit(code);
      expect(res.headers.location, `click ${i}`).toBe("https://example.com/limited");
    }
    const fourth = await visit(code);
    expect(fourth.statusCode).toBe(302);
    expect(fourth.headers.location).toBe("https://example.com/sold-out");
    const resolved = await h.app.inject({ method: "GET", url: `/resolve/${code}`, headers: owner.headers });
    expect(resolved.json().data).toMatchObject({ state: "click_limit_reached", clicks: 3, max_clicks: 3 });
  });

  it("never exceeds max_clicks under 40 concurrent clicks", async () => {
    const code = await create({ url: "https://example.com/race", max_clicks: 7 });
    const results = await Promise.all(Array.from({ length: 40 }, () => visit(code, { accept: "application/json" })));
    expect(results.filter((r) => r.statusCode === 302 && r.headers.location === "https://example.com/race")).toHaveLength(7);
    expect(results.filter((r) => r.statusCode === 404)).toHaveLength(33);
    const resolved = await h.app.inject({ method: "GET", url: `/resolve/${code}`, headers: owner.headers });
    expect(resolved.json().data.clicks).toBe(7);
    expect(resolved.json().data.stats.total_hits).toBe(7);
  });

  it("sends inactive links to the link's fallback, else the account's, else 404", async () => {
    const account = await h.platform.subscribe("url-shortener", "PRO");
    const withOwn = await create({ url: "https://example.com/a", fallback_url: "https://example.com/link-fallback" }, account);
    const without = await create({ url: "https://example.com/b" }, account);
    for (const code of [withOwn, without]) {
      expect((await h.app.inject({ method: "DELETE", url: `/links/${code}`, headers: account.headers })).statusCode).toBe(200);
    }
    expect((await visit(without, { accept: "application/json" })).statusCode).toBe(404);
    const put = await putFallback(h.app, account.headers, "https://Example.com/account-fallback");
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toEqual({ fallback_url: "https://example.com/account-fallback" });
    expect((await h.app.inject({ method: "GET", url: "/settings", headers: account.headers })).json().data).toEqual({
      fallback_url: "https://example.com/account-fallback",
    });
    const viaAccount = await visit(without);
    expect(viaAccount.statusCode).toBe(302);
    expect(viaAccount.headers.location).toBe("https://example.com/account-fallback");
    expect((await visit(withOwn)).headers.location).toBe("https://example.com/link-fallback");
    await putFallback(h.app, account.headers, null);
    expect((await visit(without, { accept: "application/json" })).statusCode).toBe(404);
  });

  it("does not count HEAD requests as clicks", async () => {
    const code = await create({ url: "https://example.com/head", max_clicks: 1 });
    const head = await h.app.inject({ method: "HEAD", url: `/${code}`, headers: { host: SHORT_HOST } });
    expect(head.statusCode).toBe(302);
    expect(head.headers.location).toBe("https://example.com/head");
    expect((await visit(code)).headers.location).toBe("https://example.com/head");
    const used = await h.app.inject({ method: "HEAD", url: `/${code}`, headers: { host: SHORT_HOST, accept: "application/json" } });
    expect(used.statusCode).toBe(404);
  });

  it("answers 404, not 400, for paths that cannot be codes", async () => {
    for (const path of ["/" + "a".repeat(65), "/favicon.ico", "/a%20b"]) {
      const res = await h.app.inject({ method: "GET", url: path, headers: { host: SHORT_HOST, accept: "application/json" } });
      expect(res.statusCode, path).toBe(404);
      expect(res.json().error.code).toBe("NOT_FOUND");
    }
  });
});

describe("PATCH /links/{code}", () => {
  it("changes the destination, limits and fallback; the redirect follows at once", async () => {
    const code = await create({ url: "https://example.com/old", max_clicks: 1, expires_at: new Date(Date.now() + 86_400_000).toISOString() });
    expect((await visit(code)).headers.location).toBe("https://example.com/old");
    expect((await visit(code, { accept: "application/json" })).statusCode).toBe(404);
    const patch = (payload: Record<string, unknown>, subscriber = owner) =>
      h.app.inject({ method: "PATCH", url: `/links/${code}`, headers: subscriber.headers, payload });
    const res = await patch({ url: "https://Example.com/new", max_clicks: null, expires_at: null, fallback_url: "https://example.com/fb", redirect_type: 301 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      code,
      url: "https://example.com/new",
      state: "active",
      max_clicks: null,
      expires_at: null,
      fallback_url: "https://example.com/fb",
      redirect_type: 301,
      clicks: 1,
    });
    const moved = await visit(code);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe("https://example.com/new");

    const limited = await patch({ max_clicks: 2 });
    expect(limited.json().data).toMatchObject({ max_clicks: 2, clicks: 2, state: "click_limit_reached" });
    expect((await visit(code)).headers.location).toBe("https://example.com/fb");

    const other = await h.platform.subscribe("url-shortener", "PRO");
    expect((await patch({ url: "https://example.com/hijack" }, other)).statusCode).toBe(404);
    const empty = await patch({});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe("VALIDATION_ERROR");
    const past = await patch({ expires_at: "2020-01-01T00:00:00Z" });
    expect(past.json().error.details).toEqual([{ field: "expires_at", issue: "must be in the future" }]);
    const zero = await patch({ max_clicks: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().error.details[0].field).toBe("max_clicks");
    const loop = await patch({ url: "http://url-shortener.api.local:3001/x" });
    expect(loop.statusCode).toBe(422);
    expect(loop.json().error.code).toBe("UNSAFE_URL");

    await h.app.inject({ method: "DELETE", url: `/links/${code}`, headers: owner.headers });
    const gone = await patch({ url: "https://example.com/after-delete" });
    expect(gone.statusCode).toBe(409);
    expect(gone.json().error.message).toBe(`The link ${code} is deleted; a deleted link cannot be changed.`);
  });
});

describe("link lifetime", () => {
  it("is permanent without expires_at or max_clicks, BASIC included", async () => {
    const basic = await h.platform.subscribe("url-shortener", "BASIC");
    const code = await create({ url: "https://example.com/forever-free" }, basic);
    try {
      clock.frozenAt = Date.now() + 20 * 365 * 86_400_000;
      const res = await visit(code);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe("https://example.com/forever-free");
    } finally {
      clock.frozenAt = null;
    }
  });
});

describe("GET /stats/{code}", () => {
  it("takes the client address from the trusted proxy's X-Forwarded-For entry, not from a spoofed one", async () => {
    const code = await create({ url: "https://example.com/proxied" });
    await visit(code, { "x-forwarded-for": "8.8.8.8, 81.2.69.142" }, "127.0.0.1");
    const stats = await h.app.inject({ method: "GET", url: `/stats/${code}`, headers: owner.headers });
    expect(stats.json().data.countries).toEqual([{ value: "GB", count: 1 }]);
  });

  it("counts hits, unique visitors and bots, with breakdowns and a daily series, after a known set of clicks", async () => {
    const code = await create({ url: "https://example.com/measured" });
    const desktopGb = { "user-agent": CHROME_WINDOWS, referer: "https://www.news.example/story" };
    await visit(code, desktopGb, "81.2.69.142");
    await visit(code, desktopGb, "81.2.69.142");
    await visit(code, desktopGb, "81.2.69.142");
    await visit(code, { "user-agent": SAFARI_IPHONE }, "2a01:4f8::1");
    await visit(code, { "user-agent": GOOGLEBOT }, "66.249.66.1");

    const today = new Date().toISOString().slice(0, 10);
    const hits = await h.app.inject({ method: "GET", url: `/stats/${code}?unique=false`, headers: owner.headers });
    expect(hits.statusCode).toBe(200);
    expect(hits.json().data).toMatchObject({
      code,
      unique: false,
      ...KNOWN_CLICKS_STATS,
      browsers: [
        { value: "Chrome", count: 3 },
        { value: "Mobile Safari", count: 1 },
      ],
      operating_systems: [
        { value: "Windows", count: 3 },
        { value: "iOS", count: 1 },
      ],
      time_series: [{ date: today, count: 4 }],
    });

    const unique = await h.app.inject({ method: "GET", url: `/stats/${code}?unique=true`, headers: owner.headers });
    expect(unique.json().data).toMatchObject({
      unique: true,
      total_hits: 4,
      unique_visitors: 2,
      referrers: [
        { value: "direct", count: 1 },
        { value: "news.example", count: 1 },
      ],
      countries: [
        { value: "DE", count: 1 },
        { value: "GB", count: 1 },
      ],
      time_series: [{ date: today, count: 2 }],
    });

    const resolved = await h.app.inject({ method: "GET", url: `/resolve/${code}`, headers: owner.headers });
    expect(resolved.json().data.clicks).toBe(5);
    expect(resolved.json().data.stats).toMatchObject({ total_hits: 4, unique_visitors: 2, bot_hits: 1 });
  });

  it("adds up across flushes and splits at UTC midnight; a visitor on two days counts on each", async () => {
    const code = await create({ url: "https://example.com/midnight" });
    const stats = async (query: string) => (await h.app.inject({ method: "GET", url: `/stats/${code}?${query}`, headers: owner.headers })).json().data;
    const lastClickedAt = async () =>
      (await h.app.inject({ method: "GET", url: `/resolve/${code}`, headers: owner.headers })).json().data.stats.last_clicked_at;
    const today = new Date().toISOString().slice(0, 10);
    const midnight = Date.parse(`${today}T00:00:00Z`) + 86_400_000;
    const tomorrow = new Date(midnight).toISOString().slice(0, 10);
    try {
      clock.frozenAt = midnight - 1;
      await visit(code, {}, "81.2.69.142");
      expect((await stats(`from=${today}&to=${tomorrow}`)).total_hits).toBe(1);
      expect(await lastClickedAt()).toBe(new Date(midnight - 1).toISOString());
      await visit(code, {}, "81.2.69.142");
      clock.frozenAt = midnight;
      await visit(code, {}, "81.2.69.142");
      const data = await stats(`from=${today}&to=${tomorrow}&unique=true`);
      expect(await lastClickedAt()).toBe(new Date(midnight).toISOString());
      expect(data).toMatchObject({ total_hits: 3, unique_visitors: 2, countries: [{ value: "GB", count: 2 }] });
      expect(data.time_series).toEqual([
        { date: today, count: 1 },
        { date: tomorrow, count: 1 },
      ]);
      expect((await stats(`from=${today}&to=${tomorrow}`)).time_series).toEqual([
        { date: today, count: 2 },
        { date: tomorrow, count: 1 },
      ]);
    } finally {
      clock.frozenAt = null;
    }
  });

  it("filters by whole UTC days and fills the daily series with zeros", async () => {
    const code = await create({ url: "https://example.com/windowed" });
    await visit(code);
    const now = new Date();
    const day = (offset: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset)).toISOString().slice(0, 10);
    const res = await h.app.inject({ method: "GET", url: `/stats/${code}?from=${day(-2)}&to=${day(1)}`, headers: owner.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ from: day(-2), to: day(1), total_hits: 1 });
    expect(res.json().data.time_series).toEqual([
      { date: day(-2), count: 0 },
      { date: day(-1), count: 0 },
      { date: day(0), count: 1 },
      { date: day(1), count: 0 },
    ]);
    const before = await h.app.inject({ method: "GET", url: `/stats/${code}?from=${day(-3)}&to=${day(-1)}`, headers: owner.headers });
    expect(before.json().data).toMatchObject({ total_hits: 0, unique_visitors: 0, referrers: [], countries: [] });
    const defaults = await h.app.inject({ method: "GET", url: `/stats/${code}`, headers: owner.headers });
    expect(defaults.json().data).toMatchObject({ from: day(0), to: day(0), time_series: [{ date: day(0), count: 1 }] });
  });

  it("bounds the window at 366 days and refuses inverted or unparsable bounds", async () => {
    const code = await create({ url: "https://example.com/bounds" });
    const ok = await h.app.inject({ method: "GET", url: `/stats/${code}?from=2025-01-01&to=2026-01-01`, headers: owner.headers });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.time_series).toHaveLength(366);
    const tooLong = await h.app.inject({ method: "GET", url: `/stats/${code}?from=2025-01-01&to=2026-01-02`, headers: owner.headers });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.details).toEqual([{ field: "to", issue: "must be at most 365 days after from (366 days in all)" }]);
    const oneDay = await h.app.inject({ method: "GET", url: `/stats/${code}?from=2026-01-02&to=2026-01-02`, headers: owner.headers });
    expect(oneDay.json().data.time_series).toEqual([{ date: "2026-01-02", count: 0 }]);
    const inverted = await h.app.inject({ method: "GET", url: `/stats/${code}?from=2026-01-02&to=2026-01-01`, headers: owner.headers });
    expect(inverted.json().error.details).toEqual([{ field: "from", issue: "must not be after to" }]);
    for (const bad of ["yesterday", "2026-02-30", "2026-11-01T00:00:00Z"]) {
      const res = await h.app.inject({ method: "GET", url: `/stats/${code}?from=${bad}`, headers: owner.headers });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.details).toEqual([{ field: "from", issue: "must be a date written YYYY-MM-DD (a UTC day)" }]);
    }
    const badUnique = await h.app.inject({ method: "GET", url: `/stats/${code}?unique=maybe`, headers: owner.headers });
    expect(badUnique.statusCode).toBe(400);
    expect(badUnique.json().error.details[0].field).toBe("unique");
  });
});

/** Over a real connection: a cached link is answered before Fastify routes the request (inject never goes there). */
describe("GET /{code} over a real connection", () => {
  let port = 0;
  beforeAll(async () => {
    await h.app.listen({ port: 0, host: "127.0.0.1" });
    port = (h.app.server.address() as AddressInfo).port;
  });

  const send = (method: "GET" | "HEAD", code: string, headers: Record<string, string> = {}) =>
    requestOverHttp(port, method, `/${code}`, { host: SHORT_HOST, "user-agent": CHROME_WINDOWS, ...headers });
  const sameParts = (answer: HttpAnswer) => ({
    status: answer.status,
    location: answer.headers.location,
    cacheControl: answer.headers["cache-control"],
    contentLength: answer.headers["content-length"],
    body: answer.body,
  });

  it("answers a cached link exactly as the first, uncached visit was answered", async () => {
    for (const [payload, status, cacheControl] of [
      [{ url: "https://example.com/wire?q=1" }, 302, "private, no-cache"],
      [{ url: "https://example.com/wire-permanent", redirect_type: 301 }, 301, "private, max-age=3600"],
    ] as const) {
      const code = await create(payload);
      const first = await send("GET", code);
      const cached = await send("GET", code);
      expect(sameParts(first)).toEqual({ status, location: payload.url, cacheControl, contentLength: "0", body: "" });
      expect(sameParts(cached)).toEqual(sameParts(first));
      expect(cached.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(cached.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    }
  });

  it("records clicks answered from the cache with the same detail as the others", async () => {
    const code = await create({ url: "https://example.com/wire-stats" });
    const desktopGb = { "x-forwarded-for": "81.2.69.142", referer: "https://www.news.example/story" };
    for (let i = 0; i < 3; i++) expect((await send("GET", code, desktopGb)).status).toBe(302);
    expect((await send("GET", code, { "user-agent": SAFARI_IPHONE, "x-forwarded-for": "2a01:4f8::1" })).status).toBe(302);
    expect((await send("GET", code, { "user-agent": GOOGLEBOT, "x-forwarded-for": "66.249.66.1" })).status).toBe(302);
    expect((await send("HEAD", code, desktopGb)).status).toBe(302);
    const stats = await h.app.inject({ method: "GET", url: `/stats/${code}`, headers: owner.headers });
    expect(stats.json().data).toMatchObject(KNOWN_CLICKS_STATS);
  });

  it("leaves click limits, expiry and deletion to the full path even when the link is cached", async () => {
    const limited = await create({ url: "https://example.com/wire-limited", max_clicks: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await send("GET", limited, { accept: "application/json" })).status);
    expect(statuses).toEqual([302, 302, 404]);

    const expiresAt = Date.now() + 3_600_000;
    const expiring = await create({
      url: "https://example.com/wire-expiring",
      expires_at: new Date(expiresAt).toISOString(),
      fallback_url: "https://example.com/wire-over",
    });
    try {
      clock.frozenAt = expiresAt - 1;
      expect((await send("GET", expiring)).headers.location).toBe("https://example.com/wire-expiring");
      clock.frozenAt = expiresAt;
      const after = await send("GET", expiring);
      expect([after.status, after.headers.location]).toEqual([302, "https://example.com/wire-over"]);
    } finally {
      clock.frozenAt = null;
    }

    const deleted = await create({ url: "https://example.com/wire-deleted" });
    expect((await send("GET", deleted)).status).toBe(302);
    expect((await h.app.inject({ method: "DELETE", url: `/links/${deleted}`, headers: owner.headers })).statusCode).toBe(200);
    expect((await send("GET", deleted, { accept: "application/json" })).status).toBe(404);
  });

  it("never takes one of the service's own paths for a code", async () => {
    const health = await send("GET", "health");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ data: { status: "up" } });
  });
});
