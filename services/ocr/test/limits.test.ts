import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { client, startService, UnknownData } from "@apiplat/testing";
import service from "../src/service.js";
import * as S from "../src/schemas.js";
import { TEST_SETTINGS, withMegaKey, multipartBody, ocrUnderTest } from "./support/app.js";
import { encodeBmp24, pdfOfJpegPages, renderSvgPng, renderTextPng, toGrayRaw } from "./support/render.js";

const MAX_BYTES = 20 * 1024 * 1024;

const ocr = ocrUnderTest({ OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8" });
let server: Server;
let baseUrl: string;
const served = new Map<string, Buffer>();
let tinyGray: { width: number; height: number; data: Buffer };

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = served.get(req.url ?? "");
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "image/bmp" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tinyGray = await toGrayRaw(await renderSvgPng(360, 100, '<text x="20" y="70" font-family="DejaVu Sans" font-size="48">Limit</text>'));
});
afterAll(async () => {
  server?.close();
});

const post = (payload: unknown, headers: Record<string, string> = {}) =>
  ocr.api().post(S.ExtractResultSchema, "/extract", payload, { ...ocr.caller.headers, ...headers });

describe("image size: 20 MiB (20971520 bytes)", () => {
  // A BMP's header names its pixel data; bytes after it are ignored, so padding makes a valid file of any size.
  const paddedBmp = (size: number) => encodeBmp24(tinyGray, size);

  it("accepts an upload of exactly 20 MiB and refuses one byte more", async () => {
    const atLimit = await multipartBody(paddedBmp(MAX_BYTES), {}, "scan.bmp");
    const ok = await post(atLimit.payload, { "content-type": atLimit.contentType });
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({ format: "bmp", text: "Limit" });
    const over = await multipartBody(paddedBmp(MAX_BYTES + 1), {}, "scan.bmp");
    const refused = await post(over.payload, { "content-type": over.contentType });
    expect([refused.status, refused.error.code, refused.error.details]).toEqual([
      413,
      "PAYLOAD_TOO_LARGE",
      [{ field: "file", issue: "must be at most 20971520 bytes" }],
    ]);
  });

  it("accepts base64 that decodes to exactly 20 MiB and refuses one byte more", async () => {
    const ok = await post({ image: paddedBmp(MAX_BYTES).toString("base64") });
    expect([ok.status, ok.data.text]).toEqual([200, "Limit"]);
    const refused = await post({ image: paddedBmp(MAX_BYTES + 1).toString("base64") });
    expect([refused.status, refused.error.details]).toEqual([413, [{ field: "image", issue: "must decode to at most 20971520 bytes (got 20971521)" }]]);
  });

  it("downloads a URL of exactly 20 MiB and refuses one byte more", async () => {
    served.set("/at-limit.bmp", paddedBmp(MAX_BYTES));
    served.set("/over-limit.bmp", paddedBmp(MAX_BYTES + 1));
    const ok = await post({ url: `${baseUrl}/at-limit.bmp` });
    expect([ok.status, ok.data.text]).toEqual([200, "Limit"]);
    const refused = await post({ url: `${baseUrl}/over-limit.bmp` });
    expect([refused.status, refused.error.details]).toEqual([413, [{ field: "url", issue: "must point to a file of at most 20971520 bytes" }]]);
  });

  it("refuses a JSON body larger than the base64 of 20 MiB plus room for the options", async () => {
    const res = await post({ image: "A".repeat(30 * 1024 * 1024) });
    expect([res.status, res.error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
  });
});

describe("image pixels: 40,000,000", () => {
  it("refuses an image one pixel row over the limit before decoding it", async () => {
    const over = await sharp({ create: { width: 8000, height: 5001, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer();
    const res = await post({ image: over.toString("base64") });
    expect([res.status, res.error.details]).toEqual([
      413,
      [{ field: "image", issue: "is 8000x5001 = 40,008,000 pixels; at most 40,000,000 pixels are accepted" }],
    ]);
  });

  it("applies a configured limit at its edge", async () => {
    const small = await withMegaKey(await startService(service, { settings: { ...TEST_SETTINGS, maxPixels: 200_000, warmLanguages: "" } }));
    try {
      const page = (height: number) => renderSvgPng(500, height, '<text x="20" y="80" font-family="DejaVu Sans" font-size="48">Edge</text>');
      const ok = await client(small, small.headers).post(S.ExtractResultSchema, "/extract", { image: (await page(400)).toString("base64") });
      expect([ok.status, ok.data.text]).toEqual([200, "Edge"]);
      const refused = await client(small, small.headers).post(UnknownData, "/extract", { image: (await page(401)).toString("base64") });
      expect([refused.status, refused.error.details]).toEqual([
        413,
        [{ field: "image", issue: "is 500x401 = 200,500 pixels; at most 200,000 pixels are accepted" }],
      ]);
    } finally {
      await small.close();
    }
  });
});

describe("pages per request: 10", () => {
  let pdf: string;
  beforeAll(async () => {
    const pages = await Promise.all(
      Array.from({ length: 11 }, async (_, i) => {
        const png = await renderTextPng(`Sheet ${i + 1}`, { pointSize: 12, dpi: 150, margin: 30 });
        const { width, height } = await sharp(png).metadata();
        return { jpeg: await sharp(png).toColourspace("b-w").jpeg({ quality: 90 }).toBuffer(), width: width!, height: height!, dpi: 150 };
      }),
    );
    pdf = pdfOfJpegPages(pages).toString("base64");
  });

  it("reads ten selected pages of an eleven-page PDF in order", async () => {
    const res = await post({ image: pdf, pages: "1-10" });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ page_count: 11, pages_processed: 10 });
    expect(res.data.pages.map((p) => [p.page_number, p.text])).toEqual(Array.from({ length: 10 }, (_, i) => [i + 1, `Sheet ${i + 1}`]));
  });

  it("refuses eleven pages, whether by default or selected", async () => {
    const all = await post({ image: pdf });
    expect([all.status, all.error.details]).toEqual([
      413,
      [{ field: "pages", issue: "the document has 11 pages and at most 10 are read per request; choose them with 'pages', e.g. '1-10'" }],
    ]);
    const selected = await post({ image: pdf, pages: "1-11" });
    expect([selected.status, selected.error.details]).toEqual([413, [{ field: "pages", issue: "selects 11 pages; at most 10 are read per request" }]]);
  });

  it("renders at the dpi bounds, 70 and 600", async () => {
    for (const dpi of [70, 600]) {
      const res = await post({ image: pdf, pages: "2", dpi });
      expect(res.status).toBe(200);
      expect(res.data.pages[0].dpi).toBe(dpi);
    }
  });
});

describe("time and capacity", () => {
  it("stops a request that overruns the processing limit with 422", async () => {
    const slow = await withMegaKey(await startService(service, { settings: { ...TEST_SETTINGS, timeoutMs: 1, warmLanguages: "" } }));
    try {
      const png = await renderTextPng("Too slow for a one millisecond budget", { pointSize: 14 });
      const res = await client(slow, slow.headers).post(UnknownData, "/extract", { image: png.toString("base64") });
      expect([res.status, res.error.code, res.error.details]).toEqual([
        422,
        "UNPROCESSABLE",
        [{ field: "timeout", issue: "processing must finish within 1 ms" }],
      ]);
    } finally {
      await slow.close();
    }
  });

  it("queues up to the queue length behind a busy worker and answers 503 with Retry-After beyond it", async () => {
    const busy = await withMegaKey(await startService(service, { settings: { ...TEST_SETTINGS, poolSize: 1, maxQueue: 1, warmLanguages: "" } }));
    try {
      const png = (await renderTextPng("Three requests arrive at once.\nOne runs, one waits, one is turned away.", { pointSize: 14 })).toString("base64");
      const responses = await Promise.all([0, 1, 2].map(() => client(busy, busy.headers).post(S.ExtractResultSchema, "/extract", { image: png })));
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 503]);
      const refused = responses.find((r) => r.status === 503)!;
      expect([refused.error.code, refused.headers["retry-after"]]).toEqual(["UNAVAILABLE", "5"]);
    } finally {
      await busy.close();
    }
  });
});
