import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type StartedService } from "@apiplat/testing";
import service from "../src/service.js";
import { SHORT_HOST, TEST_SETTINGS } from "./helpers.js";

/** Codes come from this queue when it is not empty, so that a test can make the generator repeat itself. */
const queue: string[] = [];
const lengthsAsked: number[] = [];
let h: StartedService;

beforeAll(async () => {
  h = await startService(service, {
    settings: TEST_SETTINGS,
    inject: {
      generateCode: (length) => {
        lengthsAsked.push(length);
        return queue.shift() ?? "Z".repeat(length - 1) + String(lengthsAsked.length % 10);
      },
    },
  });
});
afterAll(async () => h?.close());

describe("generated codes", () => {
  it("are collision-checked: a taken code (in any letter case) is replaced by a fresh one", async () => {
    const user = await h.platform.subscribe("url-shortener", "MEGA");
    const shorten = (url: string) => h.app.inject({ method: "POST", url: "/shorten", headers: user.headers, payload: { url } });
    queue.push("Abc1234");
    expect((await shorten("https://example.com/first")).json().data.code).toBe("Abc1234");
    queue.push("abc1234", "Abc1234", "Fresh77");
    const second = await shorten("https://example.com/second");
    expect(second.statusCode).toBe(201);
    expect(second.json().data.code).toBe("Fresh77");
    const first = await h.app.inject({ method: "GET", url: "/Abc1234", headers: { host: SHORT_HOST } });
    expect(first.headers.location).toBe("https://example.com/first");
  });

  it("grow by one character after five collisions in a row", async () => {
    const user = await h.platform.subscribe("url-shortener", "MEGA");
    queue.push("Taken01");
    await h.app.inject({ method: "POST", url: "/shorten", headers: user.headers, payload: { url: "https://example.com/t" } });
    lengthsAsked.length = 0;
    queue.push("Taken01", "Taken01", "Taken01", "Taken01", "Taken01", "Longer08");
    const res = await h.app.inject({ method: "POST", url: "/shorten", headers: user.headers, payload: { url: "https://example.com/long" } });
    expect(res.json().data.code).toBe("Longer08");
    expect(lengthsAsked).toEqual([7, 7, 7, 7, 7, 8]);
  });

  it("skip reserved words", async () => {
    const user = await h.platform.subscribe("url-shortener", "MEGA");
    queue.push("shorten", "Okcode1");
    const res = await h.app.inject({ method: "POST", url: "/shorten", headers: user.headers, payload: { url: "https://example.com/r" } });
    expect(res.json().data.code).toBe("Okcode1");
  });
});
