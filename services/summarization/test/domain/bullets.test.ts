import { describe, expect, it } from "vitest";
import { trimLeadingConnective } from "../../src/domain/bullets.js";
import { toolsFor, type Language } from "../../src/domain/languages.js";

const en = toolsFor("en");

describe("trimLeadingConnective", () => {
  it.each<[sentence: string, language: Language, trimmed: string]>([
    ["However, the roof leaks.", "en", "The roof leaks."],
    ["As a result the roof leaks.", "en", "The roof leaks."],
    ["Andrew fixed the roof.", "en", "Andrew fixed the roof."],
    ["Außerdem regnet es.", "de", "Regnet es."],
    ["Однако крыша протекает.", "ru", "Крыша протекает."],
    ["但是，屋顶漏水。", "zh", "屋顶漏水。"],
  ])("drops one leading connective and keeps words that merely start like one: %s", (sentence, language, trimmed) => {
    expect(trimLeadingConnective(sentence, language)).toBe(trimmed);
  });
});
