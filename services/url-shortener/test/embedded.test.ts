import { afterAll, beforeAll, expect, it } from "vitest";
import { startService, type StartedService } from "@apiplat/testing";
import service from "../src/service.js";
import { BASE_URL, CHROME_WINDOWS, SHORT_HOST } from "./helpers.js";

// `npm start` runs every service on the embedded PGlite and the in-process store: the same SQL must work there.
let started: StartedService;
let app: StartedService["app"];
let platform: StartedService["platform"];

beforeAll(async () => {
  started = await startService(service, { embedded: true, settings: { baseUrl: BASE_URL, clickFlushMs: 600_000 } });
  ({ app, platform } = started);
});
afterAll(async () => {
  await started?.close();
});

it("creates, redirects, limits clicks and reports stats on the embedded database and in-process store", async () => {
  const user = await platform.subscribe("url-shortener", "PRO");
  const bulk = await app.inject({
    method: "POST",
    url: "/bulk",
    headers: user.headers,
    payload: { urls: ["https://example.com/e1", { url: "https://example.com/e2", alias: "embedded-two", max_clicks: 1 }] },
  });
  expect(bulk.json().data.created).toBe(2);
  const first = await app.inject({ method: "GET", url: "/embedded-two", headers: { host: SHORT_HOST, "user-agent": CHROME_WINDOWS }, remoteAddress: "81.2.69.142" });
  expect(first.headers.location).toBe("https://example.com/e2");
  const second = await app.inject({ method: "GET", url: "/embedded-two", headers: { host: SHORT_HOST, accept: "application/json" } });
  expect(second.statusCode).toBe(404);
  const stats = await app.inject({ method: "GET", url: "/stats/embedded-two?unique=true", headers: user.headers });
  expect(stats.json().data).toMatchObject({ total_hits: 1, unique_visitors: 1, countries: [{ value: "GB", count: 1 }], browsers: [{ value: "Chrome", count: 1 }] });
});
