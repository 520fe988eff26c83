import { describe, expect, it } from "vitest";
import { call, startService } from "@apiplat/testing";
import { serviceUnderTest } from "@apiplat/testing/service-under-test";
import * as S from "../src/schemas.js";
import service from "../src/service.js";
import { CHINESE_ARTICLE, NEWS_ARTICLE, NEWS_SENTENCES } from "./fixtures.js";

const svc = serviceUnderTest(() => startService(service));

const post = (payload: object) => call(svc.started, S.LongSummary, { method: "POST", url: "/summarize/long", headers: svc.caller.headers, payload });

const TOPICS = ["river", "harbor", "bridge", "market", "school", "library"];
const capitalized = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/** Paragraph p: ten sentences of 7 words and a full stop (80 tokens, 70 words). */
function paragraph(p: number): string {
  const topic = TOPICS[p % TOPICS.length];
  return Array.from({ length: 10 }, (_, s) => `${capitalized(topic!)} report ${p} covers point ${s} today.`).join(" ");
}

describe("POST /summarize/long", () => {
  it("packs paragraphs into chunks of at most 2,000 tokens and summarizes the chunk summaries", async () => {
    // 60 paragraphs of 80 tokens: 25 fit a chunk (2,000 tokens), so 25 + 25 + 10.
    const text = Array.from({ length: 60 }, (_, p) => paragraph(p)).join("\n\n");
    const res = await post({ text });
    expect(res.status).toBe(200);
    const data = res.data;
    expect(data.chunk_count).toBe(3);
    expect(data.chunks.map((c: { words: number }) => c.words)).toEqual([1750, 1750, 700]);
    expect(data.counts).toMatchObject({ source_words: 4200, source_sentences: 600, source_tokens: 4800 });
    const starts = [0, 250, 500];
    data.chunks.forEach((chunk: { index: number; summary: string; sentences: { index: number; text: string }[] }, i: number) => {
      expect(chunk.index).toBe(i);
      expect(chunk.sentences).toHaveLength(3);
      expect(chunk.summary).toBe(chunk.sentences.map((s) => s.text).join(" "));
      for (const s of chunk.sentences) {
        expect(s.index).toBeGreaterThanOrEqual(starts[i]!);
        expect(s.index).toBeLessThan(starts[i]! + (i < 2 ? 250 : 100));
        // The index is the sentence's position in the whole source: paragraph floor(index / 10), sentence index % 10.
        expect(s.text).toBe(
          `${capitalized(TOPICS[Math.floor(s.index / 10) % TOPICS.length]!)} report ${Math.floor(s.index / 10)} covers point ${s.index % 10} today.`,
        );
      }
    });
    // 600 sentences: the default max of 5, taken from the nine chunk sentences.
    const pooled = data.chunks.flatMap((c: { sentences: { index: number }[] }) => c.sentences.map((s) => s.index));
    expect(data.sentences).toHaveLength(5);
    for (const s of data.sentences) expect(pooled).toContain(s.index);
    expect(data.summary).toBe(data.sentences.map((s: { text: string }) => s.text).join(" "));
  });

  it("takes short input too: one chunk", async () => {
    const data = (await post({ text: NEWS_ARTICLE, max_length: 3 })).data;
    expect(data.chunk_count).toBe(1);
    expect(data.chunks[0].sentences.map((s: { text: string }) => s.text)).toEqual(NEWS_SENTENCES.slice(0, 3));
  });

  it("joins Chinese chunk summaries and the summary with no space after 。", async () => {
    const data = (await post({ text: CHINESE_ARTICLE, min_length: 6, max_length: 6 })).data;
    expect(data.language).toBe("zh");
    // One chunk of three sentences, then the summary of those three (all the pooled sentences, in order).
    const chunk = data.chunks[0];
    expect(chunk.summary).toBe(chunk.sentences.map((s: { text: string }) => s.text).join(""));
    expect(data.summary).toBe(chunk.summary);
    expect(chunk.sentences).toHaveLength(3);
    expect(data.sentences.map((s: { index: number }) => s.index)).toEqual(chunk.sentences.map((s: { index: number }) => s.index));
    expect(data.summary).not.toContain(" ");
  });

  it("takes 100,000 words and refuses 100,001 with 413 naming both", async () => {
    // 14,285 sentences of 7 words and one of 5: 100,000 words.
    const sentences = Array.from({ length: 14_285 }, (_, i) => `Section ${i} covers the ${TOPICS[i % 6]} finances today.`);
    const text = `${sentences.join(" ")} One more closing remark here.`;
    const ok = await post({ text });
    expect(ok.status).toBe(200);
    expect(ok.data.counts.source_words).toBe(100_000);
    const res = await post({ text: `${text} Extra` });
    expect(res.status).toBe(413);
    expect(res.error.details).toEqual([{ field: "text", issue: "is 100001 words long and /summarize/long takes at most 100000 words" }]);
  });

  it("bounds Chinese by characters, two per word", async () => {
    const res = await post({ text: "今天天气很好。".repeat(28_572) });
    expect(res.status).toBe(413);
    expect(res.error.details).toEqual([
      { field: "text", issue: "is 200004 characters long and /summarize/long takes at most 100000 words (200000 characters of Chinese)" },
    ]);
  });

  it("answers mode abstractive with 503 MODEL_UNAVAILABLE", async () => {
    const res = await post({ text: NEWS_ARTICLE, mode: "abstractive" });
    expect(res.status).toBe(503);
    expect(res.error.code).toBe("MODEL_UNAVAILABLE");
  });
});
