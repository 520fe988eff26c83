import { describe, expect, it } from "vitest";
import { LANGUAGE_CATALOGUE, describeLanguages, parseLanguageSpec } from "../../src/domain/languages.js";

const installed = new Set(["eng", "deu", "fra", "spa", "ita", "chi_sim"]);

describe("language specs", () => {
  it("accepts installed codes joined by +", () => {
    expect(parseLanguageSpec("eng+deu", installed)).toEqual({ ok: true, codes: ["eng", "deu"] });
  });
  it("accepts five languages and refuses six", () => {
    expect(parseLanguageSpec("eng+deu+fra+spa+ita", installed)).toEqual({ ok: true, codes: ["eng", "deu", "fra", "spa", "ita"] });
    expect(parseLanguageSpec("eng+deu+fra+spa+ita+chi_sim", installed)).toEqual({ ok: false, issue: "must name at most 5 languages" });
  });
  it("names what is not installed", () => {
    expect(parseLanguageSpec("eng+kor", installed)).toEqual({ ok: false, issue: "'kor' is not installed; GET /languages lists the installed ones" });
  });
  it("refuses repeats and malformed specs", () => {
    expect(parseLanguageSpec("eng+eng", installed)).toEqual({ ok: false, issue: "must not repeat a language" });
    expect(parseLanguageSpec("eng,deu", installed).ok).toBe(false);
    expect(parseLanguageSpec("../etc", installed).ok).toBe(false);
  });
  it("lists the whole Tesseract catalogue with installed flags and Debian package names", () => {
    const entries = describeLanguages(installed);
    expect(entries).toHaveLength(LANGUAGE_CATALOGUE.length);
    expect(LANGUAGE_CATALOGUE.length).toBeGreaterThanOrEqual(120);
    expect(entries.find((e) => e.code === "chi_sim")).toEqual({
      code: "chi_sim",
      name: "Chinese (Simplified)",
      installed: true,
      debian_package: "tesseract-ocr-chi-sim",
    });
    expect(entries.find((e) => e.code === "kor")).toEqual({ code: "kor", name: "Korean", installed: false, debian_package: "tesseract-ocr-kor" });
  });
});
