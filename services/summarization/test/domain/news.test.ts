import { describe, expect, it } from "vitest";
import { toolsFor, type Language } from "../../src/domain/languages.js";
import { looksLikeNews, newsSignals } from "../../src/domain/news.js";

const en = toolsFor("en");

describe("looksLikeNews", () => {
  it("takes attributed, dated reporting for news and first-person or scholarly text for something else", () => {
    const report = [
      "The city council approved the budget on Tuesday after a long debate.",
      "The mayor said the vote was a victory for the northern districts.",
      "Critics argued the money should have gone to roads.",
      "Work on the first branch starts in the spring, officials said.",
    ];
    expect(looksLikeNews(report, "en")).toBe(true);
    const review = [
      "I bought this purse for my sister and she loves it.",
      "The straps broke after a week, but the seller replaced them.",
      "I would buy it again.",
      "My friend said the color is even nicer in person.",
    ];
    expect(looksLikeNews(review, "en")).toBe(false);
    const abstract = [
      "We propose a memory-efficient model for incremental learning.",
      "Our model stores no previous examples.",
      "It reaches state-of-the-art accuracy on three benchmarks.",
    ];
    expect(looksLikeNews(abstract, "en")).toBe(false);
  });

  it("counts first-person words in quotes as quoted speech, and US as a country", () => {
    const quoted = [
      "Maria Lopez, the head of the Riverton Library Board, opened the new Northern Branch in Riverton.",
      '"I have waited ten years for this," Lopez told the Riverton Daily News.',
      "The US Department of Education paid for the Reading Rooms of the Northern Branch.",
    ];
    const signals = newsSignals(quoted, "en");
    expect(signals).toMatchObject({ sentences: 3, cueSentences: 1, firstPersonSingular: 0, firstPersonPlural: 0 });
    expect(looksLikeNews(quoted, "en")).toBe(true);
  });

  it("reads the cues of every language served", () => {
    const cues: Record<Language, [string, string]> = {
      en: ["The minister said the plan works.", "The vote took place on Monday."],
      es: ["El ministro dijo que el plan funciona.", "La votación fue el lunes."],
      fr: ["Le ministre a déclaré que le plan fonctionne.", "Le vote a eu lieu lundi."],
      de: ["Der Minister sagte, der Plan funktioniere.", "Die Abstimmung fand am Montag statt."],
      pt: ["O ministro disse que o plano funciona.", "A votação foi na segunda-feira."],
      it: ["Il ministro ha detto che il piano funziona.", "Il voto si è tenuto lunedì."],
      nl: ["De minister zei dat het plan werkt.", "De stemming was op maandag."],
      ru: ["Министр заявил, что план работает.", "Голосование прошло в понедельник."],
      zh: ["部长表示该计划有效。", "投票于周一举行。"],
    };
    for (const [language, sentences] of Object.entries(cues) as [Language, [string, string]][]) {
      expect(newsSignals(sentences, language).cueSentences, language).toBe(2);
      expect(looksLikeNews(sentences, language), language).toBe(true);
    }
  });
});
