import { describeAuth } from "@apiplat/testing/auth-suite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSubscriber } from "@apiplat/testing";
import { startService, type StartedService } from "@apiplat/testing";
import service from "../src/service.js";
import { BASE_URL, TEST_SETTINGS } from "./helpers.js";

let h: StartedService;
let mega: TestSubscriber;

beforeAll(async () => {
  h = await startService(service, { settings: TEST_SETTINGS });
  mega = await h.platform.subscribe("url-shortener", "MEGA");
});
afterAll(async () => h?.close());

async function shorten(payload: unknown, headers = mega.headers) {
  return h.app.inject({ method: "POST", url: "/shorten", headers, payload: payload as object });
}

describe("POST /shorten", () => {
  it("creates a link with a random 7-character code and returns every documented field", async () => {
    const res = await shorten({ url: "HTTPS://Example.COM:443/Path?q=1#frag" });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.status).toBe("success");
    const link = body.data;
    expect(link.code).toMatch(/^[0-9A-Za-z]{7}$/);
    expect(link).toMatchObject({
      short_url: `${BASE_URL}/${link.code}`,
      url: "https://example.com/Path?q=1#frag",
      domain: "url-shortener.api.local:3001",
      state: "active",
      redirect_type: 302,
      fallback_url: null,
      expires_at: null,
      max_clicks: null,
      clicks: 0,
      deleted_at: null,
    });
    expect(Date.parse(link.created_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("generates different codes for the same URL", async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 5; i++) codes.add((await shorten({ url: "https://example.com/same" })).json().data.code);
    expect(codes.size).toBe(5);
  });

  it("accepts an alias, expiry, click limit, fallback and 301", async () => {
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const res = await shorten({
      url: "https://example.com/a",
      alias: "Spring-Sale_2026",
      expires_at: expires,
      max_clicks: 3,
      fallback_url: "https://example.com/over",
      redirect_type: 301,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      code: "Spring-Sale_2026",
      short_url: `${BASE_URL}/Spring-Sale_2026`,
      expires_at: expires,
      max_clicks: 3,
      fallback_url: "https://example.com/over",
      redirect_type: 301,
    });
  });

  it("refuses an alias taken in another letter case with 409 CONFLICT", async () => {
    expect((await shorten({ url: "https://example.com/1", alias: "promo-x" })).statusCode).toBe(201);
    const res = await shorten({ url: "https://example.com/2", alias: "PROMO-X" });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: "CONFLICT", details: [{ field: "alias", issue: "is already taken" }] });
  });

  it("refuses reserved words as aliases, whatever the case", async () => {
    for (const alias of ["api", "ADMIN", "stats", "shorten", "Links", "domains"]) {
      const res = await shorten({ url: "https://example.com/", alias });
      expect(res.statusCode, alias).toBe(400);
      expect(res.json().error.details).toEqual([{ field: "alias", issue: "is a reserved word; choose another alias" }]);
    }
  });

  it("bounds the alias at 3 and 64 characters of letters, digits, - and _", async () => {
    expect((await shorten({ url: "https://example.com/", alias: "abc" })).statusCode).toBe(201);
    expect((await shorten({ url: "https://example.com/", alias: "x".repeat(64) })).statusCode).toBe(201);
    const short = await shorten({ url: "https://example.com/", alias: "ab" });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.details).toEqual([{ field: "alias", issue: "must be at least 3 characters long" }]);
    const long = await shorten({ url: "https://example.com/", alias: "y".repeat(65) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.details).toEqual([{ field: "alias", issue: "must be at most 64 characters long" }]);
    const bad = await shorten({ url: "https://example.com/", alias: "no/slash" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].field).toBe("alias");
  });

  it("bounds the URL at 2048 characters", async () => {
    const base = "https://example.com/";
    const atLimit = base + "a".repeat(2048 - base.length);
    const ok = await shorten({ url: atLimit });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.url).toBe(atLimit);
    const over = await shorten({ url: atLimit + "a" });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.details).toEqual([{ field: "url", issue: "must be at most 2048 characters long" }]);
  });

  it("refuses URLs that are not absolute http(s), carry credentials or point at private addresses", async () => {
    const cases: Array<[string, string]> = [
      ["ftp://example.com/file", "must use the http or https scheme"],
      ["javascript:alert(1)", "must use the http or https scheme"],
      ["example.com/no-scheme", "must be an absolute http or https URL"],
      ["https://user:pw@example.com/", "must not contain credentials (user:password@)"],
      ["http://intranet/", "must have a fully qualified host name"],
      ["http://127.0.0.1/admin", "must not point to a private, loopback, link-local or metadata address"],
      ["http://169.254.169.254/latest/meta-data", "must not point to a private, loopback, link-local or metadata address"],
      ["http://[::1]/", "must not point to a private, loopback, link-local or metadata address"],
    ];
    for (const [url, issue] of cases) {
      const res = await shorten({ url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.details, url).toEqual([{ field: "url", issue }]);
    }
  });

  it("validates expires_at (future, at most 10 years) and max_clicks (1 to 1e9)", async () => {
    const past = await shorten({ url: "https://example.com/", expires_at: new Date(Date.now() - 1000).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.details).toEqual([{ field: "expires_at", issue: "must be in the future" }]);
    const garbage = await shorten({ url: "https://example.com/", expires_at: "next tuesday" });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().error.details[0].field).toBe("expires_at");
    const far = new Date();
    far.setUTCFullYear(far.getUTCFullYear() + 10, far.getUTCMonth(), far.getUTCDate() + 1);
    const tooFar = await shorten({ url: "https://example.com/", expires_at: far.toISOString() });
    expect(tooFar.statusCode).toBe(400);
    expect(tooFar.json().error.details[0]).toEqual({ field: "expires_at", issue: "must be at most 10 years in the future (omit it for a permanent link)" });
    expect((await shorten({ url: "https://example.com/", max_clicks: 1 })).statusCode).toBe(201);
    expect((await shorten({ url: "https://example.com/", max_clicks: 1_000_000_000 })).statusCode).toBe(201);
    const zero = await shorten({ url: "https://example.com/", max_clicks: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().error.details).toEqual([{ field: "max_clicks", issue: "must be at least 1" }]);
    const over = await shorten({ url: "https://example.com/", max_clicks: 1_000_000_001 });
    expect(over.json().error.details).toEqual([{ field: "max_clicks", issue: "must be at most 1000000000" }]);
    const fraction = await shorten({ url: "https://example.com/", max_clicks: 1.5 });
    expect(fraction.statusCode).toBe(400);
  });

  it("requires url and a JSON body", async () => {
    const res = await shorten({ alias: "no-url-here" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "url", issue: "is required" }] });
  });
});

describe("service endpoints", () => {
  it("publishes OpenAPI with every API path and keeps the redirect out of it", async () => {
    const res = await h.app.inject({ method: "GET", url: "/openapi.json" });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const path of [
      "/shorten",
      "/bulk",
      "/resolve/{code}",
      "/stats/{code}",
      "/links",
      "/links/{code}",
      "/settings",
      "/domains",
      "/domains/{domain}/verify",
    ]) {
      expect(paths, path).toContain(path);
    }
    expect(paths).not.toContain("/{code}");
  });
});

describeAuth({ started: () => h, method: "POST", url: "/shorten", payload: { url: "https://example.com/" } });

describe("POST /bulk", () => {
  it("returns one result per item in input order; a bad item fails alone", async () => {
    const res = await h.app.inject({
      method: "POST",
      url: "/bulk",
      headers: mega.headers,
      payload: {
        urls: [
          "https://example.com/one",
          { url: "https://example.com/two", alias: "bulk-two" },
          "not a url",
          { url: "https://example.com/four", alias: "bulk-two" },
          { url: "https://example.com/five", max_clicks: 0 },
          42,
          { url: "https://example.com/seven", extra: true },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.created).toBe(2);
    expect(data.failed).toBe(5);
    const results = data.results;
    expect(results.map((r: { index: number; status: string }) => [r.index, r.status])).toEqual([
      [0, "created"],
      [1, "created"],
      [2, "error"],
      [3, "error"],
      [4, "error"],
      [5, "error"],
      [6, "error"],
    ]);
    expect(results[0].link.url).toBe("https://example.com/one");
    expect(results[1].link.code).toBe("bulk-two");
    expect(results[2].error).toMatchObject({
      status: 400,
      code: "VALIDATION_ERROR",
      details: [{ field: "url", issue: "must be an absolute http or https URL" }],
    });
    expect(results[3].error).toMatchObject({ status: 409, code: "CONFLICT" });
    expect(results[4].error).toMatchObject({ status: 400, details: [{ field: "max_clicks", issue: "must be at least 1" }] });
    expect(results[5].error).toMatchObject({
      status: 400,
      details: [{ field: "item", issue: "must be a URL string or an object with the fields of /shorten" }],
    });
    expect(results[6].error).toMatchObject({ status: 400, details: [{ field: "extra", issue: "is not an accepted field" }] });
  });

  it("accepts 100 items on paid plans and refuses 101", async () => {
    const pro = await h.platform.subscribe("url-shortener", "PRO");
    const urls = Array.from({ length: 100 }, (_, i) => `https://example.com/bulk/${i}`);
    const ok = await h.app.inject({ method: "POST", url: "/bulk", headers: pro.headers, payload: { urls } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.created).toBe(100);
    expect(new Set(ok.json().data.results.map((r: { link: { code: string } }) => r.link.code)).size).toBe(100);
    const over = await h.app.inject({ method: "POST", url: "/bulk", headers: pro.headers, payload: { urls: [...urls, "https://example.com/x"] } });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.details).toEqual([{ field: "urls", issue: "must have at most 100 items" }]);
  });

  it("accepts 10 items on BASIC and refuses 11 with a message naming both bounds", async () => {
    const basic = await h.platform.subscribe("url-shortener", "BASIC");
    const urls = Array.from({ length: 10 }, (_, i) => `https://example.com/basic/${i}`);
    const ok = await h.app.inject({ method: "POST", url: "/bulk", headers: basic.headers, payload: { urls } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.created).toBe(10);
    const over = await h.app.inject({ method: "POST", url: "/bulk", headers: basic.headers, payload: { urls: [...urls, "https://example.com/11"] } });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.details).toEqual([{ field: "urls", issue: "must have at most 10 items on the BASIC plan (100 on PRO, ULTRA and MEGA)" }]);
    const empty = await h.app.inject({ method: "POST", url: "/bulk", headers: basic.headers, payload: { urls: [] } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.details).toEqual([{ field: "urls", issue: "must not be empty: give at least one item" }]);
  });
});

describe("links of an account", () => {
  it("lists newest first with a cursor, resolves, deletes; another account sees 404", async () => {
    const owner = await h.platform.subscribe("url-shortener", "ULTRA");
    const other = await h.platform.subscribe("url-shortener", "ULTRA");
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await shorten({ url: `https://example.com/list/${i}` }, owner.headers);
      codes.push(res.json().data.code);
    }
    const page1 = await h.app.inject({ method: "GET", url: "/links?limit=2", headers: owner.headers });
    expect(page1.statusCode).toBe(200);
    expect(page1.json().data.links.map((l: { code: string }) => l.code)).toEqual([codes[2], codes[1]]);
    const cursor = page1.json().data.next_cursor;
    expect(typeof cursor).toBe("string");
    const page2 = await h.app.inject({ method: "GET", url: `/links?limit=2&cursor=${cursor}`, headers: owner.headers });
    expect(page2.json().data.links.map((l: { code: string }) => l.code)).toEqual([codes[0]]);
    expect(page2.json().data.next_cursor).toBeNull();

    const resolved = await h.app.inject({ method: "GET", url: `/resolve/${codes[0]}`, headers: owner.headers });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().data).toMatchObject({
      code: codes[0],
      url: "https://example.com/list/0",
      state: "active",
      stats: { total_hits: 0, unique_visitors: 0, bot_hits: 0, last_clicked_at: null },
    });

    for (const path of [`/resolve/${codes[0]}`, `/stats/${codes[0]}`]) {
      const res = await h.app.inject({ method: "GET", url: path, headers: other.headers });
      expect(res.statusCode, path).toBe(404);
      expect(res.json().error.code).toBe("NOT_FOUND");
    }
    const foreignDelete = await h.app.inject({ method: "DELETE", url: `/links/${codes[0]}`, headers: other.headers });
    expect(foreignDelete.statusCode).toBe(404);
    expect((await h.app.inject({ method: "GET", url: "/links", headers: other.headers })).json().data.links).toEqual([]);

    const deleted = await h.app.inject({ method: "DELETE", url: `/links/${codes[0]}`, headers: owner.headers });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data.state).toBe("deleted");
    const again = await h.app.inject({ method: "DELETE", url: `/links/${codes[0]}`, headers: owner.headers });
    expect(again.statusCode).toBe(404);
    const afterDelete = await h.app.inject({ method: "GET", url: `/resolve/${codes[0]}`, headers: owner.headers });
    expect(afterDelete.json().data.state).toBe("deleted");
    const listed = await h.app.inject({ method: "GET", url: "/links", headers: owner.headers });
    expect(listed.json().data.links.map((l: { code: string }) => l.code)).toEqual([codes[2], codes[1]]);
    const withDeleted = await h.app.inject({ method: "GET", url: "/links?include_deleted=true", headers: owner.headers });
    expect(withDeleted.json().data.links).toHaveLength(3);
  });

  it("bounds limit at 1..100 and rejects forged cursors", async () => {
    expect((await h.app.inject({ method: "GET", url: "/links?limit=100", headers: mega.headers })).statusCode).toBe(200);
    const over = await h.app.inject({ method: "GET", url: "/links?limit=101", headers: mega.headers });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.details).toEqual([{ field: "limit", issue: "must be at most 100" }]);
    const zero = await h.app.inject({ method: "GET", url: "/links?limit=0", headers: mega.headers });
    expect(zero.json().error.details).toEqual([{ field: "limit", issue: "must be at least 1" }]);
    const forged = await h.app.inject({ method: "GET", url: "/links?cursor=bm9wZQ", headers: mega.headers });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.details).toEqual([{ field: "cursor", issue: "must be a next_cursor value returned by GET /links" }]);
  });
});
