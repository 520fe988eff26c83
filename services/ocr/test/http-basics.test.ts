import { beforeAll, describe, expect, it } from "vitest";
import { describeAuth } from "@apiplat/testing/auth-suite";
import sharp from "sharp";
import { call, Readiness, startService, UnknownData } from "@apiplat/testing";
import service from "../src/service.js";
import * as S from "../src/schemas.js";
import { TEST_SETTINGS, withMegaKey, multipartBody, ocrUnderTest } from "./support/app.js";
import { renderSvgPng } from "./support/render.js";

const ocr = ocrUnderTest({ OUTBOUND_ALLOW_CIDRS: "" });
let smallPng: Buffer;

beforeAll(async () => {
  smallPng = await renderSvgPng(400, 120, '<text x="20" y="80" font-family="DejaVu Sans" font-size="48">Hello</text>');
});

const post = (url: string, payload: unknown, headers = ocr.caller.headers) => ocr.api().post(UnknownData, url, payload, headers);

describeAuth({ started: () => ocr.started, method: "POST", url: "/extract", payload: {} });

describe("metering", () => {
  it("meters an authenticated call with the plan's quota headers", async () => {
    const res = await ocr.api().get(S.LanguagesResultSchema, "/languages");
    expect(res.status).toBe(200);
    expect(res.headers["x-ratelimit-requests-limit"]).toBe("1000000");
  });
});

describe("platform routes", () => {
  it("is ready when the database, the cache, the default language's data and the orientation detector's data answer", async () => {
    const res = await call(ocr.started, Readiness, { url: "/ready" });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ status: "ready", checks: { database: "ok", cache: "ok", language_data: "ok", orientation_data: "ok" } });
  });
  it("is not ready when the language folder lacks the default language (and the orientation data)", async () => {
    const broken = await withMegaKey(await startService(service, { settings: { ...TEST_SETTINGS, langPath: "/nonexistent/tessdata", warmLanguages: "" } }));
    try {
      const res = await call(broken, UnknownData, { url: "/ready" });
      expect([res.status, res.error.details]).toEqual([
        503,
        [
          { field: "language_data", issue: "did not answer" },
          { field: "orientation_data", issue: "did not answer" },
        ],
      ]);
    } finally {
      await broken.close();
    }
  });
  it("describes the three endpoints in OpenAPI", async () => {
    const res = await ocr.started.app.inject({ method: "GET", url: "/openapi.json" });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths;
    expect(
      Object.keys(paths)
        .filter((p) => !p.startsWith("/docs"))
        .sort(),
    ).toEqual(["/extract", "/extract/structured", "/languages"]);
    expect(Object.keys(paths["/extract"].post.requestBody.content).sort()).toEqual(["application/json", "multipart/form-data"]);
  });
});

describe("input errors", () => {
  it("requires exactly one of url, image or file", async () => {
    const none = await post("/extract", { language: "eng" });
    expect([none.status, none.error.code, none.error.details]).toEqual([
      400,
      "VALIDATION_ERROR",
      [{ field: "url", issue: "is required: give exactly one of url, image (base64) or an uploaded file" }],
    ]);
    const both = await post("/extract", { url: "https://example.com/a.png", image: smallPng.toString("base64") });
    expect([both.status, both.error.details]).toEqual([
      400,
      [{ field: "image", issue: "must not be given with url: give exactly one of url, image (base64) or an uploaded file" }],
    ]);
  });
  it("refuses text that is not base64", async () => {
    const res = await post("/extract", { image: "this is not base64!" });
    expect([res.status, res.error.details]).toEqual([400, [{ field: "image", issue: "must be base64-encoded" }]]);
  });
  it("answers 415 for a format it does not read (SVG) and 422 for a damaged PNG, GIF or PDF", async () => {
    const svg = await post("/extract", { image: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><text>Hi</text></svg>').toString("base64") });
    expect([svg.status, svg.error.code, svg.error.message]).toEqual([
      415,
      "UNSUPPORTED_MEDIA_TYPE",
      "Unsupported input: the input is not a PNG, JPEG, TIFF, WebP, GIF, BMP or PDF file.",
    ]);
    const gif = await sharp(smallPng).gif().toBuffer();
    const brokenGif = await post("/extract", { image: gif.subarray(0, 40).toString("base64") });
    expect([brokenGif.status, brokenGif.error.code]).toEqual([422, "UNPROCESSABLE"]);
    const truncated = await post("/extract", { image: smallPng.subarray(0, 200).toString("base64") });
    expect([truncated.status, truncated.error.code]).toEqual([422, "UNPROCESSABLE"]);
    const brokenPdf = await post("/extract", { image: Buffer.from("%PDF-1.4\nthis is no pdf at all\n%%EOF").toString("base64") });
    expect([brokenPdf.status, brokenPdf.error.code, brokenPdf.error.message]).toEqual([
      422,
      "UNPROCESSABLE",
      "The input could not be read: the PDF could not be read (damaged or not a PDF).",
    ]);
  });
  it("validates language against what is installed", async () => {
    const notInstalled = await post("/extract", { image: smallPng.toString("base64"), language: "eng+kor" });
    expect([notInstalled.status, notInstalled.error.details]).toEqual([
      400,
      [{ field: "language", issue: "'kor' is not installed; GET /languages lists the installed ones" }],
    ]);
    const tooMany = await post("/extract", { image: smallPng.toString("base64"), language: "eng+deu+fra+spa+ita+nld" });
    expect([tooMany.status, tooMany.error.details]).toEqual([400, [{ field: "language", issue: "must name at most 5 languages" }]]);
    const malformed = await post("/extract", { image: smallPng.toString("base64"), language: "English" });
    expect(malformed.status).toBe(400);
  });
  it("bounds psm, rotate and dpi", async () => {
    const image = smallPng.toString("base64");
    const cases: Array<[object, string, string]> = [
      [{ psm: 2 }, "psm", "must be at least 3"],
      [{ psm: 14 }, "psm", "must be at most 13"],
      [{ psm: 12 }, "psm", "must be one of: 3, 4, 5, 6, 7, 8, 9, 10, 11, 13"],
      [{ rotate: 45 }, "rotate", "must be one of: 0, 90, 180, 270"],
      [{ dpi: 69 }, "dpi", "must be at least 70"],
      [{ dpi: 601 }, "dpi", "must be at most 600"],
    ];
    for (const [options, field, issue] of cases) {
      const res = await post("/extract", { image, ...options });
      expect([res.status, res.error.details]).toEqual([400, [{ field, issue }]]);
    }
  });
  it("bounds the url length at 2048 characters", async () => {
    const base = "http://169.254.169.254/";
    const atLimit = await post("/extract", { url: base + "a".repeat(2048 - base.length) });
    // At the limit the URL is accepted by the schema and then refused by the outbound guard.
    expect([atLimit.status, atLimit.error.details]).toEqual([
      400,
      [{ field: "url", issue: "must not point to a private, loopback, link-local or metadata address" }],
    ]);
    const over = await post("/extract", { url: base + "a".repeat(2049 - base.length) });
    expect([over.status, over.error.details]).toEqual([400, [{ field: "url", issue: "must be at most 2048 characters long" }]]);
  });
  it("refuses URLs to private, loopback and metadata addresses and non-http schemes", async () => {
    for (const url of ["http://127.0.0.1:9/a.png", "http://10.0.0.1/a.png", "http://[::1]/a.png"]) {
      const res = await post("/extract", { url });
      expect([res.status, res.error.details]).toEqual([
        400,
        [{ field: "url", issue: "must not point to a private, loopback, link-local or metadata address" }],
      ]);
    }
    const file = await post("/extract", { url: "file:///etc/passwd" });
    expect([file.status, file.error.details]).toEqual([400, [{ field: "url", issue: "must use http or https" }]]);
  });
  it("checks multipart uploads: one file, a real file field", async () => {
    const textField = await multipartBody(null, { file: "not a file" });
    const res = await post("/extract", textField.payload, { ...ocr.caller.headers, "content-type": textField.contentType });
    expect([res.status, res.error.details]).toEqual([400, [{ field: "file", issue: "must be an uploaded file (multipart/form-data)" }]]);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(smallPng)]), "a.png");
    form.append("file", new Blob([new Uint8Array(smallPng)]), "b.png");
    const request = new Request("http://localhost/", { method: "POST", body: form });
    const two = await post("/extract", Buffer.from(await request.arrayBuffer()), {
      ...ocr.caller.headers,
      "content-type": request.headers.get("content-type")!,
    });
    expect([two.status, two.error.details]).toEqual([400, [{ field: "file", issue: "must be a single file" }]]);
  });
  it("answers 415 for a body that is neither JSON nor multipart", async () => {
    const res = await post("/extract", "hello", { ...ocr.caller.headers, "content-type": "text/plain" });
    expect([res.status, res.error.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
  });
});
