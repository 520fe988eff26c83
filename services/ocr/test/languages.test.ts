import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService } from "@apiplat/testing";
import service from "../src/service.js";
import { TEST_SETTINGS, withMegaKey, type OcrTestContext } from "./support/app.js";
import { LANGUAGE_CATALOGUE } from "../src/domain/languages.js";

let ctx: OcrTestContext;

beforeAll(async () => {
  ctx = await withMegaKey(await startService(service, { env: { OUTBOUND_ALLOW_CIDRS: "" }, settings: TEST_SETTINGS }));
});
afterAll(async () => ctx?.close());

describe("GET /languages", () => {
  it("lists every Tesseract language with the installed ones marked", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/languages", headers: ctx.headers });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.default_language).toBe("eng");
    expect(data.max_languages_per_request).toBe(5);
    expect(data.languages).toHaveLength(LANGUAGE_CATALOGUE.length);
    const installed = data.languages
      .filter((l: { installed: boolean }) => l.installed)
      .map((l: { code: string }) => l.code)
      .sort();
    expect(installed).toEqual(["ara", "chi_sim", "deu", "eng", "fra", "heb", "ita", "jpn", "nld", "por", "rus", "spa"]);
    expect(data.installed_count).toBe(12);
    expect(data.languages.find((l: { code: string }) => l.code === "jpn")).toEqual({
      code: "jpn",
      name: "Japanese",
      installed: true,
      debian_package: "tesseract-ocr-jpn",
    });
    expect(data.languages.find((l: { code: string }) => l.code === "tha")).toEqual({
      code: "tha",
      name: "Thai",
      installed: false,
      debian_package: "tesseract-ocr-tha",
    });
  });
});
