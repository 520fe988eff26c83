import { describe, expect, it } from "vitest";
import { describeAuth } from "@apiplat/testing/auth-suite";
import { call, startService } from "@apiplat/testing";
import { serviceUnderTest } from "@apiplat/testing/service-under-test";
import * as S from "../src/schemas.js";
import service from "../src/service.js";
import {
  CHINESE_ARTICLE,
  CHINESE_SENTENCES,
  LONG_LEAD_ARTICLE,
  LONG_LEAD_SENTENCES,
  NEWS_ARTICLE,
  NEWS_SENTENCES,
  REVIEW,
  REVIEW_SENTENCES,
} from "./fixtures.js";

const svc = serviceUnderTest(() => startService(service));

const post = (url: string, payload: object, headers = svc.caller.headers) => call(svc.started, S.Summary, { method: "POST", url, headers, payload });
const texts = (res: Awaited<ReturnType<typeof post>>) => res.data.sentences.map((s) => s.text);

/** `count` sentences of 7 words and a full stop: 8 tokens each. */
function sentencesOfEightTokens(count: number): string {
  return Array.from({ length: count }, (_, i) => `Report number ${i} covers river ${i % 7} today.`).join(" ");
}

describe("POST /summarize", () => {
  it("picks the lead sentences of a news text, drops the near-repeat, and counts everything", async () => {
    const res = await post("/summarize", { text: NEWS_ARTICLE });
    expect(res.status).toBe(200);
    const data = res.data;
    // News-like (sentences 0, 2 and 5 say "said" or "on Tuesday"): the lead, three sentences, since the first two
    // (18 + 18 words) stay under the 60 words at which a news summary stops at two.
    expect(data.sentences.map((s: { index: number }) => s.index)).toEqual([0, 1, 2]);
    expect(data.summary).toBe(NEWS_SENTENCES.slice(0, 3).join(" "));
    expect(data.sentences[0].score).toBe(1);
    expect(data).toMatchObject({ mode: "extractive", style: null, language: "en", language_detected: true });
    expect(data.source).toEqual({ kind: "text", title: null, url: null, content_type: null });
    const summaryWords = NEWS_SENTENCES.slice(0, 3).join(" ").split(" ").length;
    expect(data.counts).toEqual({
      source_words: NEWS_ARTICLE.split(" ").length,
      source_sentences: 10,
      // Marks count too: ten full stops, the dot of "Dr." and the comma after "March" (inner marks of 4.2, 30,000 and
      // council's belong to their words).
      source_tokens: NEWS_ARTICLE.split(" ").length + 12,
      summary_words: summaryWords,
      summary_sentences: 3,
    });
    expect(data.compression).toBe(Math.round((summaryWords / NEWS_ARTICLE.split(" ").length) * 10_000) / 10_000);
  });

  it("stops a news summary at two sentences when its lead reaches 60 words, unless min_length asks for more", async () => {
    const res = await post("/summarize", { text: LONG_LEAD_ARTICLE });
    // 31 + 30 = 61 words.
    expect(res.data.summary).toBe(`${LONG_LEAD_SENTENCES[0]} ${LONG_LEAD_SENTENCES[1]}`);
    expect(res.data.counts).toMatchObject({ source_sentences: 8, summary_sentences: 2, summary_words: 61 });
    const three = await post("/summarize", { text: LONG_LEAD_ARTICLE, min_length: 3 });
    expect(three.data.sentences.map((s: { index: number }) => s.index)).toEqual([0, 1, 2]);
  });

  it("sizes other text at round(3 x sentences / sqrt(words)) sentences within 2..5 by default", async () => {
    // A review in the first person: 12 sentences, 120 words: round(36 / 10.95) = 3.
    const res = await post("/summarize", { text: REVIEW });
    expect(res.status).toBe(200);
    expect(res.data.counts).toMatchObject({ source_sentences: 12, source_words: 120, summary_sentences: 3 });
    // The default bounds are the spec's 2 to 5: two sentences of a three-sentence text (round(9 / 5.1) = 2).
    const short = REVIEW_SENTENCES.slice(0, 3).join(" ");
    expect((await post("/summarize", { text: short })).data.counts).toMatchObject({ source_sentences: 3, summary_sentences: 2 });
    // A lone max_length under 2 lowers the minimum with it.
    expect((await post("/summarize", { text: REVIEW, max_length: 1 })).data.counts.summary_sentences).toBe(1);
  });

  it("joins Chinese sentences as Chinese is written, with no space after 。", async () => {
    const whole = await post("/summarize", { text: CHINESE_ARTICLE, min_length: 6, max_length: 6 });
    expect(whole.data).toMatchObject({ language: "zh", summary: CHINESE_ARTICLE });
    const res = await post("/summarize", { text: CHINESE_ARTICLE, max_length: 3 });
    const data = res.data;
    expect(data.sentences).toHaveLength(3);
    expect(data.sentences.every((s: { index: number; text: string }) => s.text === CHINESE_SENTENCES[s.index])).toBe(true);
    expect(data.summary).toBe(data.sentences.map((s: { text: string }) => s.text).join(""));
    expect(data.summary).not.toContain(" ");
  });

  it("never takes a sentence that repeats one already taken (MMR)", async () => {
    // Sentence 5 restates sentence 0; with 6 of 10 sentences asked for, a plain top-6 by score would take both.
    const res = await post("/summarize", { text: NEWS_ARTICLE, min_length: 6, max_length: 6 });
    const indexes = res.data.sentences.map((s: { index: number }) => s.index);
    expect(indexes).toHaveLength(6);
    expect(indexes).toContain(0);
    expect(indexes).not.toContain(5);
    expect(indexes).toEqual([...indexes].sort((a: number, b: number) => a - b));
  });

  it("keeps the summary within min_length and max_length", async () => {
    expect((await post("/summarize", { text: NEWS_ARTICLE, max_length: 1 })).data.counts.summary_sentences).toBe(1);
    expect((await post("/summarize", { text: NEWS_ARTICLE, max_length: 2 })).data.counts.summary_sentences).toBe(2);
    expect((await post("/summarize", { text: NEWS_ARTICLE, min_length: 4 })).data.counts.summary_sentences).toBe(4);
    expect((await post("/summarize", { text: NEWS_ARTICLE, min_length: 10, max_length: 10 })).data.summary).toBe(NEWS_ARTICLE);
    // Fewer sentences than min_length: the whole text.
    expect(texts(await post("/summarize", { text: "One short text. It has two sentences in all.", min_length: 5 }))).toEqual([
      "One short text.",
      "It has two sentences in all.",
    ]);
  });

  it("refuses lengths outside 1..10 and crossed bounds, naming the field", async () => {
    for (const [payload, field, issue] of [
      [{ min_length: 0 }, "min_length", "must be at least 1"],
      [{ max_length: 11 }, "max_length", "must be at most 10"],
      [{ min_length: 4, max_length: 3 }, "min_length", "must not exceed max_length (3)"],
      [{ style: "poetic" }, "style", "must be one of: formal, casual, technical"],
      [{ language: "ja" }, "language", "must be one of: en, es, fr, de, pt, it, nl, ru, zh"],
      [{ mode: "generative" }, "mode", "must be one of: extractive, abstractive"],
    ] as const) {
      const res = await post("/summarize", { text: NEWS_ARTICLE, ...payload });
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.error.code).toBe("VALIDATION_ERROR");
      expect(res.error.details).toContainEqual({ field, issue });
    }
  });

  it("needs text or url, and text with words in it", async () => {
    expect((await post("/summarize", {})).error.details).toEqual([
      { field: "text", issue: "is required unless url is given: send the text, a page address, or both" },
    ]);
    const blank = await post("/summarize", { text: " \n ... " });
    expect(blank.status).toBe(400);
    expect(blank.error.details).toEqual([{ field: "text", issue: "must contain words to summarize" }]);
  });

  it("takes 4,096 tokens and answers 413 at 4,097, naming both and /summarize/long", async () => {
    const atLimit = sentencesOfEightTokens(512);
    const ok = await post("/summarize", { text: atLimit });
    expect(ok.status).toBe(200);
    expect(ok.data.counts.source_tokens).toBe(4096);
    const res = await post("/summarize", { text: `${atLimit} Extra` });
    expect(res.status).toBe(413);
    expect(res.error).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      details: [
        {
          field: "text",
          issue:
            "is 4097 tokens long and this endpoint takes at most 4096 tokens (about 3500 words of English prose); " +
            "send it to POST /summarize/long, which takes up to 100000 words",
        },
      ],
    });
  });

  it("answers odd input without a 5xx", async () => {
    const huge = await post("/summarize", { text: "a".repeat(1_400_000) });
    expect(huge.status).toBe(200);
    expect(huge.data.counts).toMatchObject({ source_words: 1, source_sentences: 1, source_tokens: 1 });
    const emoji = await post("/summarize", { text: "😀".repeat(10_000) });
    expect(emoji.status).toBe(400);
    // 2,048 one-word sentences: 4,096 tokens, none of summary length.
    const short = await post("/summarize", { text: "Yes. ".repeat(2_048) });
    expect(short.status).toBe(200);
    expect(short.data.counts).toMatchObject({ source_sentences: 2_048, source_tokens: 4_096, summary_sentences: 5 });
  });

  it("finds quoted speech in linear time when quotes are opened and never closed", async () => {
    // 2,000 "“" openers (4,000 tokens, under the limit) in 1.4 MB with no closing mark: each opener was read to the
    // end of the text (seconds of CPU per request); now each is read to the next mark.
    const text = `“${"a".repeat(700)} `.repeat(2_000);
    const res = await post("/summarize", { text });
    expect(res.status).toBe(200);
    expect(res.data.counts).toMatchObject({ source_words: 2_000, source_tokens: 4_000, source_sentences: 1 });
  });

  it("answers mode abstractive with 503 MODEL_UNAVAILABLE naming the model, and no path or setting of the operator", async () => {
    const res = await post("/summarize", { text: NEWS_ARTICLE, mode: "abstractive" });
    expect(res.status).toBe(503);
    expect(res.error).toEqual({
      code: "MODEL_UNAVAILABLE",
      message: "The abstractive model Xenova/t5-small is not available on this deployment; send mode extractive.",
      details: [{ field: "mode", issue: "abstractive needs the Xenova/t5-small model, which this deployment does not have" }],
    });
    expect((await post("/summarize", { text: NEWS_ARTICLE, mode: "extractive" })).status).toBe(200);
  });
});

describeAuth({ started: () => svc.started, method: "POST", url: "/summarize", payload: { text: "One sentence. Another one." } });

describe("sentence boundaries", () => {
  const all = { min_length: 10, max_length: 10 };
  it.each([
    [
      "en",
      'Dr. Smith paid $3.50 for the U.S. Army report. John F. Kennedy was elected in 1960. "Stop." she said. The firm moved to the U.S. The move cost 2.5 million dollars! Was it worth it? Apple Inc. shares rose 3.1% on Monday.',
      [
        "Dr. Smith paid $3.50 for the U.S. Army report.",
        "John F. Kennedy was elected in 1960.",
        '"Stop." she said.',
        "The firm moved to the U.S.",
        "The move cost 2.5 million dollars!",
        "Was it worth it?",
        "Apple Inc. shares rose 3.1% on Monday.",
      ],
    ],
    [
      "es",
      "El Sr. García llegó a las 3.30 de la tarde. La inflación fue del 2,5 por ciento en el año. ¿Quién lo sabía? Nadie en la ciudad lo sabía.",
      ["El Sr. García llegó a las 3.30 de la tarde.", "La inflación fue del 2,5 por ciento en el año.", "¿Quién lo sabía?", "Nadie en la ciudad lo sabía."],
    ],
    [
      "de",
      "Am 3. Oktober feiert Deutschland den Tag der Einheit. Dr. Müller sagte, z.B. sei das sehr wichtig. Der Umsatz der Firma stieg um 4,5 Prozent.",
      ["Am 3. Oktober feiert Deutschland den Tag der Einheit.", "Dr. Müller sagte, z.B. sei das sehr wichtig.", "Der Umsatz der Firma stieg um 4,5 Prozent."],
    ],
    [
      "fr",
      "M. Dupont est arrivé à Paris hier soir. Il a dit « Bonjour. » puis il est parti vers la gare. Le taux est de 3,5 % cette année.",
      ["M. Dupont est arrivé à Paris hier soir.", "Il a dit « Bonjour. » puis il est parti vers la gare.", "Le taux est de 3,5 % cette année."],
    ],
    [
      "ru",
      "Г-н Иванов приехал в Москву вчера вечером. Это было в 2020 г. и все знали об этом. Цена составила 3.5 млн руб. за всё.",
      ["Г-н Иванов приехал в Москву вчера вечером.", "Это было в 2020 г. и все знали об этом.", "Цена составила 3.5 млн руб. за всё."],
    ],
    ["zh", "今天天气很好。我们去公园散步吧！你觉得怎么样？", ["今天天气很好。", "我们去公园散步吧！", "你觉得怎么样？"]],
  ])("splits %s text where a reader would, and detects the language", async (language, text, expected) => {
    const res = await post("/summarize", { text, ...all });
    expect(res.status).toBe(200);
    expect(texts(res)).toEqual(expected);
    expect(res.data).toMatchObject({ language, language_detected: true });
  });

  it("takes a given language over the detected one", async () => {
    const res = await post("/summarize", { text: NEWS_ARTICLE, language: "nl" });
    expect(res.data).toMatchObject({ language: "nl", language_detected: false });
  });

  it("detects Portuguese, Italian and Dutch", async () => {
    const samples = {
      pt: "O governo anunciou ontem um novo plano para a educação pública. As escolas vão receber mais professores e computadores.",
      it: "Il governo ha annunciato ieri un nuovo piano per la scuola pubblica. Le scuole riceveranno più insegnanti e computer.",
      nl: "De regering heeft gisteren een nieuw plan voor het openbaar onderwijs aangekondigd. De scholen krijgen meer leraren en computers.",
    };
    for (const [language, text] of Object.entries(samples)) {
      expect((await post("/summarize", { text })).data.language).toBe(language);
    }
  });
});
