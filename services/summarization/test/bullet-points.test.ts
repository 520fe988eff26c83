import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startService, type StartedService, type TestSubscriber } from "@apiplat/testing";
import * as S from "../src/schemas.js";
import service from "../src/service.js";
import { NEWS_ARTICLE, NEWS_SENTENCES } from "./fixtures.js";
import { startPageServer, type PageServer } from "./page-server.js";

let started: StartedService;
let caller: TestSubscriber;
let pages: PageServer;

beforeAll(async () => {
  pages = await startPageServer();
  started = await startService(service, { env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.1/32" } });
  caller = await started.subscribe("PRO");
});
afterAll(async () => {
  await started.close();
  await pages.close();
});

const post = (payload: object) => call(started, S.BulletPoints, { method: "POST", url: "/bullet-points", headers: caller.headers, payload });
type Answer = Awaited<ReturnType<typeof post>>;
const bulletTexts = (res: Answer) => res.data.bullets.map((b) => b.text);

describe("POST /bullet-points", () => {
  it("gives 5 takeaways by default, in document order, without the near-repeat", async () => {
    const res = await post({ text: NEWS_ARTICLE });
    expect(res.status).toBe(200);
    const data = res.data;
    expect(data.bullets).toHaveLength(5);
    const indexes = data.bullets.map((b: { index: number }) => b.index);
    expect(indexes).toEqual([...indexes].sort((a: number, b: number) => a - b));
    expect(indexes).not.toContain(5);
    for (const bullet of data.bullets) expect(bullet.text).toBe(NEWS_SENTENCES[bullet.index]);
    expect(data).toMatchObject({ language: "en", language_detected: true, source: { kind: "text" } });
  });

  it("trims leading connectives and capitalizes what remains", async () => {
    const text = [
      "The museum will reopen on Saturday after two years of repairs.",
      "However, the east wing stays closed until the roof is finished.",
      "And tickets for the first weekend are already sold out.",
      "In addition, entry will be free for children under twelve.",
      "Android users can book tickets through the new museum app.",
    ].join(" ");
    expect(bulletTexts(await post({ text, count: 5 }))).toEqual([
      "The museum will reopen on Saturday after two years of repairs.",
      "The east wing stays closed until the roof is finished.",
      "Tickets for the first weekend are already sold out.",
      "Entry will be free for children under twelve.",
      "Android users can book tickets through the new museum app.",
    ]);
  });

  it("trims connectives in other languages", async () => {
    const text = "El museo abrirá el sábado después de dos años de obras. Sin embargo, el ala este seguirá cerrada hasta terminar el techo.";
    expect(bulletTexts(await post({ text, count: 2 }))).toEqual([
      "El museo abrirá el sábado después de dos años de obras.",
      "El ala este seguirá cerrada hasta terminar el techo.",
    ]);
  });

  it("prefers short sentences: one past 35 words is taken only when too few others remain", async () => {
    const long =
      "The council, which met for more than four hours on Tuesday evening in the old town hall, finally approved the library budget after a long debate about roads, schools, parks, taxes and the future of the city.";
    const text = `${long} The budget doubles library hours. Two branch libraries will open. Staff will be hired in March.`;
    const indexes = (res: Answer) => res.data.bullets.map((b) => b.index);
    expect(indexes(await post({ text, count: 3 }))).toEqual([1, 2, 3]);
    expect(indexes(await post({ text, count: 4 }))).toEqual([0, 1, 2, 3]);
  });

  it("takes a page", async () => {
    const res = await post({ url: `${pages.origin}/article`, count: 2 });
    expect(res.status).toBe(200);
    expect(res.data.source).toMatchObject({ kind: "url", title: "Riverton approves library budget" });
    expect(bulletTexts(res)).toEqual(NEWS_SENTENCES.slice(0, 2));
  });

  it("bounds count to 1..10 and the input to 4,096 tokens", async () => {
    for (const count of [0, 11]) {
      const res = await post({ text: NEWS_ARTICLE, count });
      expect(res.status).toBe(400);
      expect(res.error.details?.[0]).toEqual({ field: "count", issue: count === 0 ? "must be at least 1" : "must be at most 10" });
    }
    expect((await post({ text: NEWS_ARTICLE, count: 10 })).data.bullets).toHaveLength(10);
    const res = await post({ text: "Word ".repeat(4_097) });
    expect(res.status).toBe(413);
    expect(res.error.details?.[0].issue).toMatch(/^is 4097 tokens long and this endpoint takes at most 4096 tokens/);
  });

  it("needs a key", async () => {
    expect((await started.app.inject({ method: "POST", url: "/bullet-points", payload: { text: NEWS_ARTICLE } })).statusCode).toBe(401);
  });
});
