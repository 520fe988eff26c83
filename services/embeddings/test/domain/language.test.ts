import { describe, expect, it } from "vitest";
import { detectNonEnglish } from "../../src/domain/language.js";

describe("language of a text for the English-only models", () => {
  it("stays silent on short English texts, names, titles and addresses", () => {
    for (const text of [
      "How do I reset my password?",
      "How old are you?",
      "Our office opens at nine.",
      "Passwords must have 12 characters.",
      "The cat sits on the mat.",
      "Juan de la Cruz",
      "Marguerite De La Motte",
      "Kansas Saloon Smashers",
      "iPhone 15 Pro Max 256GB",
      "Déjà vu all over again",
      "see https://en.wikipedia.org/wiki/Ella_Cinders_(film) for more",
      "Hello",
      "12345",
    ])
      expect(detectNonEnglish(text)).toBeNull();
  });
  it("names the language of texts in other languages and scripts", () => {
    const cases: Array<[string, string]> = [
      ["Le chat est sur le canapé.", "fra"],
      ["Der Hund schläft im Garten.", "deu"],
      ["El perro duerme en el jardín.", "spa"],
      ["Il gatto è sul divano.", "ita"],
      ["Onde fica a estação de trem mais próxima?", "por"],
      ["Katten sitter på soffan och det är bra", "swe"],
      ["Kot siedzi na kanapie i nie chce zejść", "pol"],
      ["猫在沙发上", "cmn"],
      ["ソファの上の猫", "jpn"],
    ];
    for (const [text, code] of cases) expect(detectNonEnglish(text)?.code).toBe(code);
  });
});
