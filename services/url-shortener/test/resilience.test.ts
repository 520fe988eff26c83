import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, TEST_REDIS_URL, type TestPlatform } from "@apiplat/testing";
import { createPostgresDatabase, createRedisStore } from "@apiplat/storage";
import { buildService } from "@apiplat/service-kit";
import service from "../src/service.js";
import { BASE_URL, CHROME_WINDOWS, SHORT_HOST } from "./helpers.js";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await createTestPlatform();
});
afterAll(async () => platform?.close());

const settings = { baseUrl: BASE_URL, clickFlushMs: 600_000 };

async function clickCount(linkCode: string): Promise<{ rows: number; counter: number }> {
  const rows = await platform.deps.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM shortener_clicks c JOIN shortener_links l ON l.id = c.link_id WHERE l.code = $1",
    [linkCode],
  );
  const counter = await platform.deps.db.query<{ clicks: number }>("SELECT clicks FROM shortener_links WHERE code = $1", [linkCode]);
  return { rows: rows.rows[0].n, counter: counter.rows[0].clicks };
}

describe("click buffer", () => {
  it("is written to PostgreSQL when the app closes (SIGTERM path)", async () => {
    const app = await buildService(service, platform.deps, { settings });
    const user = await platform.subscribe("url-shortener", "PRO");
    const res = await app.inject({ method: "POST", url: "/shorten", headers: user.headers, payload: { url: "https://example.com/flush", alias: "flush-me" } });
    expect(res.statusCode).toBe(201);
    for (let i = 0; i < 3; i++) {
      const hit = await app.inject({ method: "GET", url: "/flush-me", headers: { host: SHORT_HOST, "user-agent": CHROME_WINDOWS } });
      expect(hit.statusCode).toBe(302);
    }
    expect(await clickCount("flush-me")).toEqual({ rows: 0, counter: 0 });
    await app.close();
    expect(await clickCount("flush-me")).toEqual({ rows: 3, counter: 3 });
  });
});

/** An app whose Redis goes away once `prepare` is done: its clicks then wait in the process's own buffer. */
async function appLosingRedis(extra: Record<string, unknown>, prepare: (app: Awaited<ReturnType<typeof buildService>>) => Promise<void>) {
  const kv = await createRedisStore(TEST_REDIS_URL, { keyPrefix: `test:buffer:${Date.now()}:${Math.random()}:` });
  const app = await buildService(service, { ...platform.deps, kv }, { settings: { ...settings, ...extra } });
  await prepare(app);
  await kv.close();
  return app;
}

describe("readiness", () => {
  it("turns not ready while clicks buffered in memory (Redis down) approach the buffer's cap, and ready again once written", async () => {
    const user = await platform.subscribe("url-shortener", "PRO");
    const clickBufferIssues = async (app: Awaited<ReturnType<typeof buildService>>) => {
      const answer = (await app.inject({ method: "GET", url: "/ready" })).json();
      return ((answer.error?.details ?? []) as { field: string }[]).filter((detail) => detail.field === "click_buffer");
    };
    const app = await appLosingRedis({ clickBufferMax: 10, clickBatchSize: 100 }, async (app) => {
      await app.inject({ method: "POST", url: "/shorten", headers: user.headers, payload: { url: "https://example.com/ready", alias: "ready-check" } });
      await app.inject({ method: "GET", url: "/ready-check", headers: { host: SHORT_HOST } });
      expect((await app.inject({ method: "GET", url: "/ready" })).json().data.checks).toMatchObject({ click_buffer: "ok" });
    });
    try {
      expect(await clickBufferIssues(app)).toEqual([]);
      for (let i = 0; i < 9; i++) expect((await app.inject({ method: "GET", url: "/ready-check", headers: { host: SHORT_HOST } })).statusCode).toBe(302);
      expect(await clickBufferIssues(app)).toEqual([{ field: "click_buffer", issue: "did not answer" }]);
      await app.inject({ method: "GET", url: "/stats/ready-check", headers: user.headers });
      expect(await clickBufferIssues(app)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe("click buffer metrics", () => {
  it("counts clicks written and dropped once the in-memory buffer (Redis down) is full, and shows the backlog", async () => {
    const user = await platform.subscribe("url-shortener", "PRO");
    const app = await appLosingRedis({ clickBufferMax: 3, clickBatchSize: 100 }, async (app) => {
      await app.inject({ method: "POST", url: "/shorten", headers: user.headers, payload: { url: "https://example.com/full", alias: "buffer-full" } });
    });
    try {
      for (let i = 0; i < 5; i++) {
        expect((await app.inject({ method: "GET", url: "/buffer-full", headers: { host: SHORT_HOST } })).statusCode).toBe(302);
      }
      const metric = async (name: string) => {
        const text = (await app.inject({ method: "GET", url: "/metrics" })).body;
        return Number(new RegExp(`^${name}\\{[^}]*\\} (\\d+)$`, "m").exec(text)?.[1]);
      };
      expect(await metric("shortener_click_backlog")).toBe(3);
      expect(await metric("shortener_clicks_dropped_total")).toBe(2);
      expect(await metric("shortener_clicks_written_total")).toBe(0);
      await app.inject({ method: "GET", url: "/stats/buffer-full", headers: user.headers });
      expect(await metric("shortener_click_backlog")).toBe(0);
      expect(await metric("shortener_clicks_written_total")).toBe(3);
      expect(await clickCount("buffer-full")).toEqual({ rows: 3, counter: 3 });
    } finally {
      await app.close();
    }
  });
});

describe("Redis outage", () => {
  it("keeps redirecting, limiting clicks and recording them from PostgreSQL", async () => {
    const kv = await createRedisStore(TEST_REDIS_URL, { keyPrefix: `test:outage:${Date.now()}:` });
    const app = await buildService(service, { ...platform.deps, kv }, { settings: { ...settings, linkCacheEntries: 0 } });
    try {
      const user = await platform.subscribe("url-shortener", "PRO");
      const create = (payload: Record<string, unknown>) => app.inject({ method: "POST", url: "/shorten", headers: user.headers, payload });
      expect((await create({ url: "https://example.com/outage", alias: "outage-ok" })).statusCode).toBe(201);
      expect((await create({ url: "https://example.com/outage-limited", alias: "outage-limited", max_clicks: 2 })).statusCode).toBe(201);
      await kv.close();

      const visit = (code: string) => app.inject({ method: "GET", url: `/${code}`, headers: { host: SHORT_HOST, accept: "application/json" } });
      const first = await visit("outage-ok");
      expect(first.statusCode).toBe(302);
      expect(first.headers.location).toBe("https://example.com/outage");
      expect((await visit("outage-ok")).statusCode).toBe(302);
      const limited = [await visit("outage-limited"), await visit("outage-limited"), await visit("outage-limited")];
      expect(limited.map((r) => r.statusCode)).toEqual([302, 302, 404]);
      expect((await visit("not-there")).statusCode).toBe(404);
    } finally {
      await app.close();
    }
    expect(await clickCount("outage-ok")).toEqual({ rows: 2, counter: 2 });
    expect(await clickCount("outage-limited")).toEqual({ rows: 2, counter: 2 });
  });
});

describe("PostgreSQL outage", () => {
  it("still redirects cached links and answers 503 UNAVAILABLE, not 500, for the rest", async () => {
    const schema = (await platform.deps.db.query<{ schema: string }>("SELECT current_schema() AS schema")).rows[0].schema;
    const db = createPostgresDatabase(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test", { schema, maxConnections: 2 });
    const app = await buildService(service, { ...platform.deps, db }, { settings });
    try {
      const user = await platform.subscribe("url-shortener", "PRO");
      const res = await app.inject({
        method: "POST",
        url: "/shorten",
        headers: user.headers,
        payload: { url: "https://example.com/db-down", alias: "db-down" },
      });
      expect(res.statusCode).toBe(201);
      const visit = (code: string) => app.inject({ method: "GET", url: `/${code}`, headers: { host: SHORT_HOST, accept: "application/json" } });
      // A new or changed link is forgotten once more a second later (see LinkCache.invalidateMany): cache it after that.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect((await visit("db-down")).statusCode).toBe(302);
      await db.close();
      const cached = await visit("db-down");
      expect(cached.statusCode).toBe(302);
      expect(cached.headers.location).toBe("https://example.com/db-down");
      const uncached = await visit("never-seen");
      expect(uncached.statusCode).toBe(503);
      expect(uncached.json().error).toMatchObject({ code: "UNAVAILABLE", message: "Short links cannot be looked up right now; retry in a moment." });
    } finally {
      await app.close().catch(() => {});
    }
  });
});
