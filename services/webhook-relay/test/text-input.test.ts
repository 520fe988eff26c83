import { startService } from "@apiplat/testing";
import relayService from "../src/service.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestPlatform } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import { testPlatform, FAST_RELAY } from "./helpers.js";

let platform: TestPlatform;
let app: ServiceApp;
let headers: Record<string, string>;
let inboxId: string;

beforeAll(async () => {
  platform = await testPlatform();
  app = (await startService(relayService, { platform, settings: FAST_RELAY })).app;
  ({ headers } = await platform.subscribe("webhook-relay", "MEGA"));
  inboxId = (await app.inject({ method: "POST", url: "/create", headers })).json().data.id;
});

afterAll(async () => {
  await app.close();
  await platform.close();
});

const NUL = "must not contain a NUL character (\\u0000)";
const SURROGATE = "must not contain a lone UTF-16 surrogate (text that is not valid Unicode)";

/** A JSON body written by hand: JSON.stringify would keep "\ud800" as an escape, which is the point. */
function rawJson(text: string) {
  return { headers: { ...headers, "content-type": "application/json" }, payload: text };
}

function expectRefused(res: { statusCode: number; json: () => any }, field: string, issue: string) {
  expect(res.statusCode).toBe(400);
  const error = res.json().error;
  expect(error.code).toBe("VALIDATION_ERROR");
  expect(error.details).toEqual([{ field, issue }]);
}

describe("text that PostgreSQL cannot store is a 400 naming the field, never a 500", () => {
  it.each([
    ["default_response.body", '{"default_response":{"status":200,"body":"a\\u0000b"}}', NUL],
    ["default_response.body", '{"default_response":{"status":200,"body":"a\\ud800b"}}', SURROGATE],
    ["basic_auth.username", '{"basic_auth":{"username":"\\u0000","password":"p"}}', NUL],
    ["basic_auth.username", '{"basic_auth":{"username":"x\\udc00","password":"p"}}', SURROGATE],
    ["basic_auth.password", '{"basic_auth":{"username":"u","password":"p\\u0000"}}', NUL],
  ])("%s in POST /create and PATCH /inbox/{id} (%#)", async (field, body, issue) => {
    expectRefused(await app.inject({ method: "POST", url: "/create", ...rawJson(body) }), field, issue);
    expectRefused(await app.inject({ method: "PATCH", url: `/inbox/${inboxId}`, ...rawJson(body) }), field, issue);
  });

  it("q on an inbox's request search", async () => {
    expectRefused(await app.inject({ method: "GET", url: `/inbox/${inboxId}?q=%00`, headers }), "q", NUL);
    expectRefused(await app.inject({ method: "GET", url: `/inbox/${inboxId}?q=a%00b`, headers }), "q", NUL);
    // Bytes that are not UTF-8 are decoded leniently; whatever comes of them, the search answers.
    const invalid = await app.inject({ method: "GET", url: `/inbox/${inboxId}?q=%ED%A0%80`, headers });
    expect(invalid.statusCode).toBeLessThan(500);
    const ok = await app.inject({ method: "GET", url: `/inbox/${inboxId}?q=%25_%5C`, headers });
    expect(ok.statusCode).toBe(200);
  });

  it("url of POST /forward/{id} and POST /replay/{id}/{rid}", async () => {
    expectRefused(await app.inject({ method: "POST", url: `/forward/${inboxId}`, ...rawJson('{"url":"http://127.0.0.1/\\u0000"}') }), "url", NUL);
    expectRefused(await app.inject({ method: "POST", url: `/forward/${inboxId}`, ...rawJson('{"url":"http://127.0.0.1/\\ud800"}') }), "url", SURROGATE);
    const sent = await app.inject({ method: "POST", url: `/h/${inboxId}`, payload: "x" });
    const rid = sent.json().data.request_id;
    expectRefused(await app.inject({ method: "POST", url: `/replay/${inboxId}/${rid}`, ...rawJson('{"url":"http://127.0.0.1/\\u0000"}') }), "url", NUL);
  });

  it("while a captured body keeps NUL and any other bytes exactly, and its search finds text around them", async () => {
    const bytes = Buffer.concat([Buffer.from("find-me"), Buffer.from([0x00, 0xed, 0xa0, 0x80, 0xff]), Buffer.from("%_\\")]);
    const sent = await app.inject({ method: "POST", url: `/h/${inboxId}/nul`, headers: { "content-type": "application/octet-stream" }, payload: bytes });
    expect(sent.statusCode).toBe(200);
    const rid = sent.json().data.request_id;
    const raw = await app.inject({ method: "GET", url: `/inbox/${inboxId}/requests/${rid}/raw`, headers });
    expect(raw.rawPayload.equals(bytes)).toBe(true);
    const detail = (await app.inject({ method: "GET", url: `/inbox/${inboxId}/requests/${rid}`, headers })).json().data;
    expect(detail.body_encoding).toBe("base64");
    expect(Buffer.from(detail.body, "base64").equals(bytes)).toBe(true);
    // Search is plain substring matching: % _ and \ are themselves, not patterns.
    for (const q of ["find-me", "%25_%5C"]) {
      const found = (await app.inject({ method: "GET", url: `/inbox/${inboxId}?q=${q}`, headers })).json().data.requests;
      expect(
        found.map((r: { id: string }) => r.id),
        q,
      ).toEqual([rid]);
    }
  });
});
