import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddings, norm, type Harness } from "./support/service.js";

let h: Harness;
// No cache here: every vector below comes from the model itself.
beforeAll(async () => {
  h = await startEmbeddings({ cacheBytes: 0 });
}, 120_000);
afterAll(() => h?.started.close());

const embed = (payload: object) => h.post("/embed", payload);
const repeat = (word: string, n: number) => Array(n).fill(word).join(" ");

describe("POST /embed with USE-lite", () => {
  it("gives one unit-length 512-d vector per text, in input order, with token counts", async () => {
    const res = await embed({ input: ["The cat sits on the mat.", "Stock markets fell sharply today."] });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ model: "universal-sentence-encoder-lite", dimensions: 512, normalized: true, truncated: [false, false] });
    expect(data.embeddings).toHaveLength(2);
    for (const vector of data.embeddings) {
      expect(vector).toHaveLength(512);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    expect(data.tokens.every((t: number) => t > 3 && t < 15)).toBe(true);
    expect(data.usage.total_tokens).toBe(data.tokens[0] + data.tokens[1]);
    expect(data.embeddings[0]).not.toEqual(data.embeddings[1]);
  });

  it("takes a single string as one input", async () => {
    const data = (await embed({ input: "Hello world" })).json().data;
    expect(data.embeddings).toHaveLength(1);
    expect(data.tokens).toHaveLength(1);
  });

  it("gives bitwise the same vector alone, in any batch and on every call", async () => {
    const text = "Deterministic vectors make caching and testing easy.";
    const alone = (await embed({ input: text })).json().data.embeddings[0];
    const again = (await embed({ input: text })).json().data.embeddings[0];
    const others = Array.from({ length: 99 }, (_, i) => `Filler sentence number ${i} about ${i % 2 ? "gardening in spring" : "the history of the printing press"}.`);
    const last = (await embed({ input: [...others, text] })).json().data.embeddings[99];
    const concurrent = await Promise.all([embed({ input: [text, others[0]] }), embed({ input: [others[1], text] })]);
    expect(again).toEqual(alone);
    expect(last).toEqual(alone);
    expect(concurrent[0].json().data.embeddings[0]).toEqual(alone);
    expect(concurrent[1].json().data.embeddings[1]).toEqual(alone);
  }, 120_000);

  it("gives bitwise the same vector inside a batch of texts with as many tokens as it", async () => {
    const words = ["weather", "rivers", "sheep", "roads", "lakes", "snow", "wind", "trees", "birds", "villages", "huts", "paths", "rocks", "clouds", "storms", "farms"];
    const candidates = words.flatMap((w) => [`A report about the ${w} in the mountains.`, `A story about the ${w} in the valley.`]);
    const counted = (await embed({ input: candidates })).json().data.tokens as number[];
    const commonest = [...new Set(counted)].sort((x, y) => counted.filter((c) => c === y).length - counted.filter((c) => c === x).length)[0];
    const [text, ...sameLength] = candidates.filter((_, i) => counted[i] === commonest);
    expect(sameLength.length).toBeGreaterThanOrEqual(8);
    const alone = (await embed({ input: text })).json().data.embeddings[0];
    const batch = (await embed({ input: [...sameLength, text] })).json().data;
    expect(new Set(batch.tokens)).toEqual(new Set([commonest]));
    expect(batch.embeddings[sameLength.length]).toEqual(alone);
  });

  it("returns the raw vector with normalize false (USE-lite's own output is already unit length)", async () => {
    const data = (await embed({ input: "Hello world", normalize: false })).json().data;
    expect(data.normalized).toBe(false);
    expect(norm(data.embeddings[0])).toBeCloseTo(1, 5);
  });

  it("embeds a text of exactly 128 tokens (USE-lite's own limit) whole and cuts longer ones to it", async () => {
    const data = (await embed({ input: [repeat("the", 127), repeat("the", 128), repeat("the", 129), repeat("the", 2000)] })).json().data;
    expect(data.tokens).toEqual([127, 128, 129, 2000]);
    expect(data.truncated).toEqual([false, false, true, true]);
    expect(data.usage.total_tokens).toBe(127 + 3 * 128);
    expect(data.embeddings[0]).not.toEqual(data.embeddings[1]);
    expect(data.embeddings[2]).toEqual(data.embeddings[1]);
    expect(data.embeddings[3]).toEqual(data.embeddings[1]);
  }, 60_000);

  it("accepts 100 texts of 10,000 characters and refuses 101 texts with the count", async () => {
    const texts = Array.from({ length: 100 }, (_, i) => `${i} ${"lorem ipsum dolor sit amet ".repeat(400)}`.slice(0, 10_000));
    const full = await embed({ input: texts });
    expect(full.statusCode).toBe(200);
    expect(full.json().data.embeddings).toHaveLength(100);
    expect(full.json().data.truncated.every(Boolean)).toBe(true);
    const over = await embed({ input: [...texts.slice(0, 100), "one more"] });
    expect(over.statusCode).toBe(413);
    expect(over.json().error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: [{ field: "input", issue: "has 101 texts; at most 100 per request" }] });
  }, 300_000);

  it("refuses a 1 MB text with 413 naming it", async () => {
    const res = await embed({ input: ["fine", "x".repeat(1024 * 1024)] });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.details[0]).toEqual({ field: "input[1]", issue: "has 1048576 characters; at most 100000 per text (texts are cut at the model's token limit anyway)" });
  });

  it("refuses empty, blank and malformed texts, naming each", async () => {
    const res = await embed({ input: ["ok", "", "  \n\t "] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toEqual(["input[1]", "input[2]"]);
    const surrogate = await h.post("/embed", '{"input":["fine","a\\ud800b"]}');
    expect(surrogate.statusCode).toBe(400);
    expect(surrogate.json().error.details).toEqual([{ field: "input[1]", issue: "must not contain a lone UTF-16 surrogate (text that is not valid Unicode)" }]);
    expect((await embed({ input: [] })).json().error.details[0]).toEqual({ field: "input", issue: "must hold at least one text" });
    expect((await embed({ input: [1, 2] })).statusCode).toBe(400);
    expect((await embed({})).statusCode).toBe(400);
  });

  it("embeds emoji, accents and other scripts", async () => {
    const res = await embed({ input: ["café crème 🎉", "日本語のテキスト", "Ελληνικά"] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.embeddings.every((v: number[]) => v.length === 512 && v.every(Number.isFinite))).toBe(true);
  });
});

describe("models", () => {
  it("answers 503 MODEL_UNAVAILABLE for a known model whose weights are not installed, never another model", async () => {
    const res = await embed({ input: "Hello", model: "all-MiniLM-L6-v2" });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe("MODEL_UNAVAILABLE");
    expect(res.json().error.message).toContain("all-MiniLM-L6-v2 is not installed");
    expect(res.json().error.message).toContain("model_quantized.onnx");
  });

  it("serves /embed/multilingual only with the multilingual model", async () => {
    const res = await h.post("/embed/multilingual", { input: "Bonjour le monde" });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.message).toContain("paraphrase-multilingual-mpnet-base-v2");
    const wrong = await h.post("/embed/multilingual", { input: "Bonjour", model: "use-lite" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details[0].field).toBe("model");
  });

  it("refuses an unknown model with 400 listing the known ones", async () => {
    const res = await embed({ input: "Hello", model: "gpt-5" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].issue).toContain("universal-sentence-encoder-lite");
  });

  it("accepts a model by alias", async () => {
    const res = await embed({ input: "Hello", model: "use-lite" });
    expect(res.json().data.model).toBe("universal-sentence-encoder-lite");
  });
});

describe("auth", () => {
  it("needs a key", async () => {
    const res = await h.started.app.inject({ method: "POST", url: "/embed", payload: { input: "Hello" } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe("MISSING_API_KEY");
  });

  it("refuses another service's host", async () => {
    const res = await h.post("/embed", { input: "Hello" }, { ...h.caller.headers, "x-gateway-host": "text-toolkit.api.local" });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe("HOST_MISMATCH");
  });
});
