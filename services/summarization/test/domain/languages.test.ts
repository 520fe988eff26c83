import { describe, expect, it } from "vitest";
import { detectLanguage, toolsFor } from "../../src/domain/languages.js";

const en = toolsFor("en");

describe("detectLanguage", () => {
  it("uses the script for Chinese and Russian and trigrams for the rest", () => {
    expect(detectLanguage("这是一个关于图书馆预算的新闻报道。")).toBe("zh");
    expect(detectLanguage("Городской совет утвердил новый бюджет библиотек.")).toBe("ru");
    expect(detectLanguage("Der Stadtrat hat den neuen Haushalt für die Bibliotheken beschlossen.")).toBe("de");
    expect(detectLanguage("Le conseil municipal a approuvé le nouveau budget des bibliothèques.")).toBe("fr");
    expect(detectLanguage("ok")).toBe("en");
  });
});
