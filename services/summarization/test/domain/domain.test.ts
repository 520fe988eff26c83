import { describe, expect, it } from "vitest";
import { trimLeadingConnective } from "../../src/domain/bullets.js";
import { detectLanguage, toolsFor, type Language } from "../../src/domain/languages.js";
import { chunkText, CHUNK_TOKENS } from "../../src/domain/long.js";
import { looksLikeNews, newsSignals } from "../../src/domain/news.js";
import { cosine, lexRank, selectMmr, similarityMatrix, tfidfVectors } from "../../src/domain/rank.js";
import { joinSentences, splitSentences } from "../../src/domain/sentences.js";
import { summaryLength } from "../../src/domain/summarize.js";
import { countTokens, countWords, cutIntoWindows } from "../../src/domain/text.js";

const en = toolsFor("en");

describe("splitSentences", () => {
  it("treats blank lines as hard boundaries and a line break followed by lower case as a wrapped line", () => {
    const text = "Heading without a stop\n\nFirst sentence is\nwrapped over two lines. Second one.\nThird One here.";
    expect(splitSentences(text, en).map((s) => [s.paragraph, s.text])).toEqual([
      [0, "Heading without a stop"],
      [1, "First sentence is wrapped over two lines."],
      [1, "Second one."],
      [1, "Third One here."],
    ]);
  });

  it("splits very long paragraphs the same way as short ones", () => {
    const sentence = "Mr. Lee paid 3.5 dollars in the U.S. Army store today. ";
    const text = sentence.repeat(500);
    const found = splitSentences(text, en);
    expect(found).toHaveLength(500);
    expect(new Set(found.map((s) => s.text))).toEqual(new Set([sentence.trim()]));
  });
});

describe("cutIntoWindows", () => {
  it("cuts after a boundary past each window, or hard at twice the window, and loses nothing", () => {
    const text = "abc. ".repeat(10);
    const windows = cutIntoWindows(text, 8, /\.\s+/u);
    expect(windows.join("")).toBe(text);
    expect(windows[0]).toBe("abc. abc. ");
    const solid = "x".repeat(50);
    expect(cutIntoWindows(solid, 10, /\.\s+/u).map((w) => w.length)).toEqual([20, 20, 10]);
    // Never between the two halves of a surrogate pair.
    expect(cutIntoWindows("😀".repeat(15), 5, /\.\s+/u).every((w) => !/^[\udc00-\udfff]/u.test(w))).toBe(true);
  });
});

describe("counting", () => {
  it("counts words and tokens as documented", () => {
    // Don't | stop | 4.2 | million | state-run | U.S | firms
    expect(countWords("Don't stop: 4.2 million, state-run U.S. firms!", "en")).toBe(7);
    // 7 words + ":" + "," + "." + "!" (the dot after U.S is a mark of its own: the word is "U.S").
    expect(countTokens("Don't stop: 4.2 million, state-run U.S. firms!", "en")).toBe(11);
    // Chinese: one token per Han character, one per mark.
    expect(countTokens("今天天气很好。", "zh")).toBe(7);
  });
});

describe("detectLanguage", () => {
  it("uses the script for Chinese and Russian and trigrams for the rest", () => {
    expect(detectLanguage("这是一个关于图书馆预算的新闻报道。")).toBe("zh");
    expect(detectLanguage("Городской совет утвердил новый бюджет библиотек.")).toBe("ru");
    expect(detectLanguage("Der Stadtrat hat den neuen Haushalt für die Bibliotheken beschlossen.")).toBe("de");
    expect(detectLanguage("Le conseil municipal a approuvé le nouveau budget des bibliothèques.")).toBe("fr");
    expect(detectLanguage("ok")).toBe("en");
  });
});

describe("ranking", () => {
  it("gives identical sentences cosine 1 and disjoint ones 0", () => {
    const [a, b, c] = tfidfVectors([
      ["librari", "budget"],
      ["librari", "budget"],
      ["road", "repair"],
    ]);
    expect(cosine(a!, b!)).toBeCloseTo(1, 10);
    expect(cosine(a!, c!)).toBe(0);
  });

  it("LexRank puts the hub of a star graph first and sums to 1", () => {
    // Sentence 0 shares a term with each of the others; they share nothing among themselves.
    const vectors = tfidfVectors([["a", "b", "c"], ["a"], ["b"], ["c"]]);
    const scores = lexRank(similarityMatrix(vectors), 4);
    expect(scores.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 6);
    expect(Math.max(...scores)).toBe(scores[0]);
    expect(scores[1]).toBeCloseTo(scores[2]!, 6);
  });

  it("MMR skips a near-duplicate in favour of a new sentence", () => {
    const matrix = similarityMatrix(tfidfVectors([["x", "y"], ["x", "y"], ["z"]]));
    expect(selectMmr([1, 0.9, 0.5], matrix, { count: 2, lambda: 0.7, redundancy: 0.5 })).toEqual([0, 2]);
    // With nothing else left, the repeat is taken rather than a short summary.
    expect(selectMmr([1, 0.9, 0.5], matrix, { count: 3, lambda: 0.7, redundancy: 0.5 })).toEqual([0, 2, 1]);
  });

  it("sizes news at three sentences and other text at round(3 x sentences / sqrt(words)), within the bounds", () => {
    // 7 sentences of 170 words: 21 / 13.04 = 1.61 -> 2; 32 of 500: 96 / 22.36 = 4.29 -> 4; 30 of 100: 9 -> 5 (the most).
    const other = (sentences: number, words: number) => summaryLength({ sentences, words, news: false }, 2, 5);
    expect([other(7, 170), other(32, 500), other(30, 100), other(1, 10), other(3, 400)]).toEqual([2, 4, 5, 1, 2]);
    expect(summaryLength({ sentences: 40, words: 900, news: true }, 2, 5)).toBe(3);
    expect(summaryLength({ sentences: 40, words: 900, news: true }, 4, 6)).toBe(4);
    expect(summaryLength({ sentences: 40, words: 900, news: true }, 1, 2)).toBe(2);
  });
});

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

describe("joinSentences", () => {
  it("puts no space after a CJK sentence end and one space after any other", () => {
    expect(joinSentences(["市议会周二批准了新预算。", "预算将图书馆的开放时间延长一倍！", "你觉得怎么样？"])).toBe(
      "市议会周二批准了新预算。预算将图书馆的开放时间延长一倍！你觉得怎么样？",
    );
    expect(joinSentences(["他说：“预算很好。”", "投票结果是七比二。"])).toBe("他说：“预算很好。”投票结果是七比二。");
    expect(joinSentences(["今日は晴れです。", "公園に行きましょう…", "いいですね。"])).toBe("今日は晴れです。公園に行きましょう…いいですね。");
    expect(joinSentences(["The council met.", '"It passed."', "Wait…", "Done."])).toBe('The council met. "It passed." Wait… Done.');
    expect(joinSentences(["Het plan werkt.", "市议会批准了。", "Le vote a eu lieu."])).toBe("Het plan werkt. 市议会批准了。Le vote a eu lieu.");
    expect(joinSentences([])).toBe("");
  });
});

describe("trimLeadingConnective", () => {
  it("drops one leading connective and keeps words that merely start like one", () => {
    expect(trimLeadingConnective("However, the roof leaks.", "en")).toBe("The roof leaks.");
    expect(trimLeadingConnective("As a result the roof leaks.", "en")).toBe("The roof leaks.");
    expect(trimLeadingConnective("Andrew fixed the roof.", "en")).toBe("Andrew fixed the roof.");
    expect(trimLeadingConnective("Außerdem regnet es.", "de")).toBe("Regnet es.");
    expect(trimLeadingConnective("Однако крыша протекает.", "ru")).toBe("Крыша протекает.");
    expect(trimLeadingConnective("但是，屋顶漏水。", "zh")).toBe("屋顶漏水。");
  });
});

describe("chunkText", () => {
  it("never makes a chunk over the chunk size out of sentences that fit", () => {
    const paragraph = (i: number) => `Paragraph ${i} has seven words in it. `.repeat(30).trim();
    const text = Array.from({ length: 40 }, (_, i) => paragraph(i)).join("\n\n") + "\n\n" + "One very long paragraph sentence. ".repeat(900);
    const chunks = chunkText(text, en);
    for (const chunk of chunks) expect(countTokens(chunk, "en")).toBeLessThanOrEqual(CHUNK_TOKENS);
    expect(chunks.join(" ").replace(/\s+/g, " ")).toBe(text.replace(/\s+/g, " ").trim());
  });
});
