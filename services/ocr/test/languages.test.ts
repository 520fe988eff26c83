import { describe, expect, it } from "vitest";
import * as S from "../src/schemas.js";
import { ocrUnderTest } from "./support/app.js";
import { LANGUAGE_CATALOGUE } from "../src/domain/languages.js";

const ocr = ocrUnderTest({ OUTBOUND_ALLOW_CIDRS: "" });

describe("GET /languages", () => {
  it("lists every Tesseract language with the installed ones marked", async () => {
    const res = await ocr.api().get(S.LanguagesResultSchema, "/languages");
    expect(res.status).toBe(200);
    const data = res.data;
    expect(data.default_language).toBe("eng");
    expect(data.max_languages_per_request).toBe(5);
    expect(data.languages).toHaveLength(LANGUAGE_CATALOGUE.length);
    const installed = data.languages
      .filter((l) => l.installed)
      .map((l) => l.code)
      .sort();
    expect(installed).toEqual(["ara", "chi_sim", "deu", "eng", "fra", "heb", "ita", "jpn", "nld", "por", "rus", "spa"]);
    expect(data.installed_count).toBe(12);
    expect(data.languages.find((l) => l.code === "jpn")).toEqual({
      code: "jpn",
      name: "Japanese",
      installed: true,
      debian_package: "tesseract-ocr-jpn",
    });
    expect(data.languages.find((l) => l.code === "tha")).toEqual({
      code: "tha",
      name: "Thai",
      installed: false,
      debian_package: "tesseract-ocr-tha",
    });
  });
});
