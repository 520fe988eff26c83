import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AddressPolicy } from "@apiplat/outbound-guard";
import { call, startService, type StartedService, type TestSubscriber } from "@apiplat/testing";
import * as S from "../src/schemas.js";
import service from "../src/service.js";
import { BOILERPLATE_WORDS, NEWS_ARTICLE, NEWS_SENTENCES } from "./fixtures.js";
import { startPageServer, type PageServer } from "./page-server.js";

let pages: PageServer;
/** Allowed to reach the loopback page server, as a private deployment would allow its own network. */
let started: StartedService;
/** The production policy: no allow-list. */
let guarded: StartedService;
let caller: TestSubscriber;
let guardedCaller: TestSubscriber;

beforeAll(async () => {
  pages = await startPageServer();
  started = await startService(service, { env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.1/32" }, settings: { fetchMaxBytes: 100_000 } });
  caller = await started.subscribe("PRO");
  guarded = await startService(service);
  guardedCaller = await guarded.subscribe("PRO");
});
afterAll(async () => {
  await started.close();
  await guarded.close();
  await pages.close();
});

const post = (url: string, payload: object) => call(started, S.Summary, { method: "POST", url, headers: caller.headers, payload });
const postGuarded = (url: string, payload: object) => call(guarded, S.Summary, { method: "POST", url, headers: guardedCaller.headers, payload });

describe("POST /summarize/url", () => {
  it("summarizes an article's main content and nothing of its navigation, ads, sidebar, comments or footer", async () => {
    const res = await post("/summarize/url", { url: `${pages.origin}/article`, min_length: 10, max_length: 10 });
    expect(res.status).toBe(200);
    const data = res.data;
    expect(data.source).toEqual({ kind: "url", title: "Riverton approves library budget", url: `${pages.origin}/article`, content_type: "html" });
    // With 10 sentences asked for, every sentence of the extracted text comes back: the ten of the article (Readability
    // drops the <h1> that repeats the title).
    expect(data.sentences.map((s: { text: string }) => s.text)).toEqual(NEWS_SENTENCES);
    expect(data.counts.source_sentences).toBe(10);
    for (const word of BOILERPLATE_WORDS) expect(JSON.stringify(data)).not.toContain(word);
  });

  it("reports the final URL after a redirect", async () => {
    const res = await post("/summarize/url", { url: `${pages.origin}/moved` });
    expect(res.status).toBe(200);
    expect(res.data.source.url).toBe(`${pages.origin}/article`);
  });

  it("reads the text of a PDF page", async () => {
    const res = await post("/summarize/url", { url: `${pages.origin}/report.pdf`, max_length: 3 });
    expect(res.status).toBe(200);
    const data = res.data;
    expect(data.source).toEqual({ kind: "url", title: "Library budget report", url: `${pages.origin}/report.pdf`, content_type: "pdf" });
    expect(data.counts.source_sentences).toBe(10);
    expect(data.summary).toBe(NEWS_SENTENCES.slice(0, 3).join(" "));
  });

  it("reads plain text pages", async () => {
    const res = await post("/summarize/url", { url: `${pages.origin}/notes.txt` });
    expect(res.data.source.content_type).toBe("text");
    expect(res.data.counts.source_sentences).toBe(10);
  });

  it("reads a page whose paragraphs are nested 256 deep and answers 422 for 257, naming url and the bound", async () => {
    const edge = await post("/summarize/url", { url: `${pages.origin}/nested-256`, max_length: 3 });
    expect(edge.status, JSON.stringify(edge.body)).toBe(200);
    expect(edge.data.counts.source_sentences).toBe(NEWS_SENTENCES.length);
    const over = await post("/summarize/url", { url: `${pages.origin}/nested-257` });
    expect(over.status).toBe(422);
    expect(over.error.message).toBe("The page's elements are nested more than 256 deep; such a page cannot be read.");
    expect(over.error.details).toEqual([{ field: "url", issue: "points to a page whose elements are nested more than 256 deep" }]);
  });

  it("answers 422 for a page without readable content", async () => {
    for (const path of ["/empty", "/scan.pdf"]) {
      const res = await post("/summarize/url", { url: `${pages.origin}${path}` });
      expect(res.status, path).toBe(422);
      expect(res.error.message).toMatch(/^The page has no readable content/);
      expect(res.error.details).toEqual([{ field: "url", issue: "points to a page with no readable text" }]);
    }
  });

  it("says what went wrong with pages it cannot use", async () => {
    const missing = await post("/summarize/url", { url: `${pages.origin}/gone` });
    expect(missing.status).toBe(502);
    expect(missing.error.message).toBe("The page answered HTTP 404; nothing could be summarized.");
    const image = await post("/summarize/url", { url: `${pages.origin}/logo.png` });
    expect(image.status).toBe(415);
    expect(image.error.message).toBe("The page is image/png; only HTML, PDF and plain-text pages can be summarized.");
    const huge = await post("/summarize/url", { url: `${pages.origin}/huge` });
    expect(huge.status).toBe(413);
    expect(huge.error.details).toEqual([{ field: "url", issue: "points to a page larger than 100000 bytes, the most this service reads" }]);
  });

  it("says a page could not be reached without naming its host", async () => {
    const closed = await startPageServer();
    await closed.close();
    const res = await post("/summarize/url", { url: `${closed.origin}/article` });
    expect(res.status).toBe(502);
    expect(res.error).toMatchObject({ code: "UPSTREAM_ERROR", message: "Could not reach the page's host." });
  });

  it("refuses what is not an http(s) URL", async () => {
    for (const url of ["file:///etc/passwd", "ftp://127.0.0.1/x", "not a url"]) {
      const res = await post("/summarize/url", { url });
      expect(res.status, url).toBe(400);
      expect(res.error.details?.[0].field).toBe("url");
    }
  });

  it("needs the url", async () => {
    const res = await post("/summarize/url", { text: NEWS_ARTICLE });
    expect(res.status).toBe(400);
    expect(res.error.details).toContainEqual({ field: "url", issue: "is required" });
  });
});

describe("POST /summarize with text and url", () => {
  it("summarizes both, the text first", async () => {
    const text = "The library budget was the main item of the council meeting this week.";
    const res = await post("/summarize", { text, url: `${pages.origin}/article`, min_length: 10, max_length: 10 });
    expect(res.status).toBe(200);
    const data = res.data;
    expect(data.source.kind).toBe("text_and_url");
    expect(data.sentences[0]).toMatchObject({ index: 0, text });
    expect(data.counts.source_sentences).toBe(11);
  });
});

describe("the outbound guard", () => {
  it("refuses loopback and unspecified addresses when nothing is allowed, before any packet is sent", async () => {
    const before = pages.requests.length;
    for (const host of ["127.0.0.1", "0.0.0.0", "[::]", "[::1]", "localhost"]) {
      const res = await postGuarded("/summarize/url", { url: `http://${host}:${pages.port}/article` });
      expect(res.status, host).toBe(400);
      expect(res.error.code).toBe("VALIDATION_ERROR");
      expect(res.error.details?.[0].field).toBe("url");
    }
    const viaText = await postGuarded("/summarize", { text: NEWS_ARTICLE, url: `http://127.0.0.1:${pages.port}/article` });
    expect(viaText.status).toBe(400);
    expect(pages.requests.length).toBe(before);
  });

  it("re-checks redirects: an allowed host may not redirect to a forbidden one", async () => {
    const before = pages.requests.length;
    const res = await post("/summarize/url", { url: `${pages.origin}/to-unspecified` });
    // A redirect to a forbidden address is the URL's fault, like the address itself: a 400 naming the field.
    expect(res.status).toBe(400);
    expect(res.error.code).toBe("VALIDATION_ERROR");
    // The guard names the host; the service takes it out of the message, which the platform logs.
    expect(res.error.details).toEqual([{ field: "url", issue: expect.stringMatching(/^redirects to an address that /) }]);
    expect(res.error.message).not.toContain("0.0.0.0");
    expect(pages.requests.slice(before)).toEqual(["/to-unspecified"]);
  });

  it("refuses private, link-local and metadata addresses (asked of the policy: no packet goes there)", async () => {
    const policy = new AddressPolicy();
    for (const ip of ["10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "fc00::1", "127.0.0.1", "0.0.0.0", "::"]) {
      expect(policy.allows(ip), ip).toBe(false);
    }
    expect(policy.allows("93.184.215.14")).toBe(true);
  });
});
