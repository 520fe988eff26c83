import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cosine } from "../src/domain/vectors.js";
import * as S from "../src/schemas.js";
import { startEmbeddings, type Harness } from "./support/service.js";

let h: Harness;
beforeAll(async () => {
  h = await startEmbeddings();
}, 120_000);
afterAll(() => h?.started.close());

/** Hand-written paraphrase pairs from several domains; each pair's second text is unrelated to every other pair. */
const PAIRS: [string, string][] = [
  ["How do I reset my password?", "I forgot my password and need to change it."],
  ["The stock market fell sharply today.", "Share prices dropped a lot on the exchange this afternoon."],
  ["It is going to rain tomorrow.", "The forecast says there will be showers tomorrow."],
  ["The patient has a high fever.", "The sick person's body temperature is very elevated."],
  ["She plays the violin beautifully.", "Her performance on the violin is wonderful."],
  ["The train to London is delayed.", "The London train will arrive late."],
  ["Add two cups of flour to the bowl.", "Put 2 cups of flour into the mixing bowl."],
  ["The server crashed because it ran out of memory.", "The machine went down after exhausting its RAM."],
  ["Our team won the football match.", "We beat the other side in the soccer game."],
  ["The contract must be signed by Friday.", "The agreement needs a signature before the end of the week."],
  ["Cats like to sleep in the sun.", "Kittens enjoy napping in sunny spots."],
  ["Where is the nearest pharmacy?", "Can you tell me where I can find a drugstore close by?"],
];

describe("POST /similarity", () => {
  it("scores every paraphrase pair above every pairing of its first text with another pair's text", async () => {
    const sentences = PAIRS.map(([, b]) => b);
    for (const [i, [a]] of PAIRS.entries()) {
      const res = await h.api.post(S.Similarity, "/similarity", { source_sentence: a, sentences });
      expect(res.status).toBe(200);
      // A source_sentence with sentences answers scores (a pair of texts answers similarity).
      const scores = res.data.scores!;
      expect(scores).toHaveLength(PAIRS.length);
      const unrelated = scores.filter((_, j) => j !== i);
      expect(scores[i], `pair ${i}: ${a}`).toBeGreaterThan(Math.max(...unrelated));
    }
  }, 120_000);

  it("gives text_1 and text_2 their cosine, equal to the cosine of their /embed vectors", async () => {
    const [a, b] = PAIRS[0];
    const res = await h.api.post(S.Similarity, "/similarity", { text_1: a, text_2: b });
    expect(res.status).toBe(200);
    const vectors = (await h.api.post(S.Embeddings, "/embed", { input: [a, b] })).data.embeddings;
    expect(res.data).toEqual({
      model: "universal-sentence-encoder-lite",
      similarity: cosine(vectors[0], vectors[1]),
      usage: { total_tokens: expect.any(Number) },
      warnings: [],
    });
    const same = (await h.api.post(S.Similarity, "/similarity", { text_1: a, text_2: a })).data.similarity;
    expect(same).toBeCloseTo(1, 6);
  });

  it("accepts the TEI shape inside inputs", async () => {
    const res = await h.api.post(S.Similarity, "/similarity", { inputs: { source_sentence: PAIRS[1][0], sentences: [PAIRS[1][1], PAIRS[2][1]] } });
    expect(res.status).toBe(200);
    const [related, unrelated] = res.data.scores!;
    expect(related).toBeGreaterThan(unrelated);
  });

  it("names what is missing or too much", async () => {
    expect((await h.api.post(S.Similarity, "/similarity", { text_1: "a" })).error.details?.[0].field).toBe("text_2");
    expect((await h.api.post(S.Similarity, "/similarity", {})).error.details?.[0].field).toBe("text_1");
    const many = await h.api.post(S.Similarity, "/similarity", { source_sentence: "a", sentences: Array(101).fill("b") });
    expect(many.status).toBe(413);
    expect(many.error.details?.[0]).toEqual({ field: "sentences", issue: "has 101 texts; at most 100 per request" });
    const blank = await h.api.post(S.Similarity, "/similarity", { text_1: "a", text_2: " " });
    expect(blank.error.details?.[0].field).toBe("text_2");
  });

  it("says which text the English-only model does not read: French and English 'cat on the sofa' score low, and text_1 is named", async () => {
    const res = await h.api.post(S.Similarity, "/similarity", { text_1: "Le chat est sur le canapé.", text_2: "The cat is on the sofa." });
    expect(res.status).toBe(200);
    const data = res.data;
    expect(data.similarity).toBeLessThan(0.3);
    expect(data.warnings).toHaveLength(1);
    expect(data.warnings[0]).toMatchObject({ index: 0, field: "text_1", code: "language_not_supported", language: "fra" });
    expect(data.warnings[0].message).toContain("/embed/multilingual (paraphrase-multilingual-mpnet-base-v2");
  });
});

describe("POST /rerank", () => {
  it("sorts documents by similarity to the query, best first, keeping their indexes", async () => {
    const documents = [PAIRS[3][1], PAIRS[0][1], PAIRS[7][1], PAIRS[10][1]];
    const res = await h.api.post(S.Reranked, "/rerank", { query: PAIRS[0][0], documents, top_n: 2, return_documents: true });
    expect(res.status).toBe(200);
    const results = res.data.results;
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ index: 1, document: PAIRS[0][1] });
    expect(results[0].score).toBeGreaterThan(results[1].score);
    const all = (await h.api.post(S.Reranked, "/rerank", { query: PAIRS[0][0], documents })).data.results;
    expect(all.map((r: { index: number }) => r.index).sort()).toEqual([0, 1, 2, 3]);
    expect(all[0]).not.toHaveProperty("document");
    for (let i = 1; i < all.length; i++) expect(all[i - 1].score).toBeGreaterThanOrEqual(all[i].score);
  });

  it("names a document in another language by its index", async () => {
    const data = (
      await h.api.post(S.Reranked, "/rerank", {
        query: "Where is the train station?",
        documents: ["The station is on the left.", "Der Bahnhof ist nicht weit von hier."],
      })
    ).data;
    expect(data.warnings.map((w) => [w.field, w.language])).toEqual([["documents[1]", "deu"]]);
  });

  it("bounds the documents", async () => {
    const res = await h.api.post(S.Reranked, "/rerank", { query: "q", documents: Array(101).fill("d") });
    expect(res.status).toBe(413);
    expect((await h.api.post(S.Reranked, "/rerank", { query: "q", documents: [] })).status).toBe(400);
    expect((await h.api.post(S.Reranked, "/rerank", { query: "q", documents: ["d"], top_n: 0 })).status).toBe(400);
  });
});
