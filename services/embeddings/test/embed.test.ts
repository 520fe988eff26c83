import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeAuth } from "@apiplat/testing/auth-suite";
import { call } from "@apiplat/testing";
import * as S from "../src/schemas.js";
import { startEmbeddings, norm, type Harness } from "./support/service.js";

let h: Harness;
// No cache here: every vector below comes from the model itself.
beforeAll(async () => {
  h = await startEmbeddings({ cacheBytes: 0 });
}, 120_000);
afterAll(() => h?.started.close());

const embed = (payload: object) => call(h.started, S.Embeddings, { method: "POST", url: "/embed", headers: h.caller.headers, payload });
const sha256OfFloat32 = (vector: number[]) =>
  createHash("sha256")
    .update(Buffer.from(new Float32Array(vector).buffer))
    .digest("hex");
const PRINTING_PRESS = "the history of the printing press in europe began with movable type and spread quickly".split(" ");
const printingPress = (words: number) => Array.from({ length: words }, (_, i) => PRINTING_PRESS[i % PRINTING_PRESS.length]).join(" ");
/** Words USE-lite's tokenizer reads as one token each. */
const ONE_TOKEN_WORDS = ["cat", "dog", "the", "house", "tree", "river", "city", "water", "green", "small", "music", "night", "road", "bird"];
const repeat = (word: string, n: number) => Array(n).fill(word).join(" ");

describe("POST /embed with USE-lite", () => {
  it("gives one unit-length 512-d vector per text, in input order, with token counts", async () => {
    const res = await embed({ input: ["The cat sits on the mat.", "Stock markets fell sharply today."] });
    expect(res.status).toBe(200);
    const data = res.data;
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
    const data = (await embed({ input: "Hello world" })).data;
    expect(data.embeddings).toHaveLength(1);
    expect(data.tokens).toHaveLength(1);
  });

  it("gives bitwise the same vector alone, in any batch and on every call", async () => {
    const text = "Deterministic vectors make caching and testing easy.";
    const alone = (await embed({ input: text })).data.embeddings[0];
    const again = (await embed({ input: text })).data.embeddings[0];
    const others = Array.from(
      { length: 99 },
      (_, i) => `Filler sentence number ${i} about ${i % 2 ? "gardening in spring" : "the history of the printing press"}.`,
    );
    const last = (await embed({ input: [...others, text] })).data.embeddings[99];
    const concurrent = await Promise.all([embed({ input: [text, others[0]] }), embed({ input: [others[1], text] })]);
    expect(again).toEqual(alone);
    expect(last).toEqual(alone);
    expect(concurrent[0].data.embeddings[0]).toEqual(alone);
    expect(concurrent[1].data.embeddings[1]).toEqual(alone);
  }, 120_000);

  it("gives bitwise the same vector inside a batch of texts with as many tokens as it", async () => {
    const words = [
      "weather",
      "rivers",
      "sheep",
      "roads",
      "lakes",
      "snow",
      "wind",
      "trees",
      "birds",
      "villages",
      "huts",
      "paths",
      "rocks",
      "clouds",
      "storms",
      "farms",
    ];
    const candidates = words.flatMap((w) => [`A report about the ${w} in the mountains.`, `A story about the ${w} in the valley.`]);
    const counted = (await embed({ input: candidates })).data.tokens as number[];
    const commonest = [...new Set(counted)].sort((x, y) => counted.filter((c) => c === y).length - counted.filter((c) => c === x).length)[0];
    const [text, ...sameLength] = candidates.filter((_, i) => counted[i] === commonest);
    expect(sameLength.length).toBeGreaterThanOrEqual(8);
    const alone = (await embed({ input: text })).data.embeddings[0];
    const batch = (await embed({ input: [...sameLength, text] })).data;
    expect(new Set(batch.tokens)).toEqual(new Set([commonest]));
    expect(batch.embeddings[sameLength.length]).toEqual(alone);
  });

  it("returns the raw vector with normalize false (USE-lite's own output is already unit length)", async () => {
    const data = (await embed({ input: "Hello world", normalize: false })).data;
    expect(data.normalized).toBe(false);
    expect(norm(data.embeddings[0])).toBeCloseTo(1, 5);
  });

  it("gives texts that fit one 128-token window exactly the vectors they had before windows", async () => {
    // sha256 of the float32 vectors this service served before texts were read in windows (recorded then).
    const recorded: Array<[string, number, string]> = [
      ["The cat sits on the mat.", 9, "5da5a1347771559d5904630e86efbb0b52c8e5bf3b039419d3725866cd83b4cd"],
      ["How old are you?", 5, "5d66ac719d46849d01f15deb9799df8037ee081dcf81f9a433f201c19177a211"],
      ["Le chat est sur le canapé.", 9, "b0e96c48cc0a4652ebf50663afde71ba4024d93da8daff65b40198522ce1daed"],
      [`${printingPress(100)} cat cat`, 128, "f5a576621d4599f137a5e74bcbb7860b2ea5c1e7dbecdd87c885b3aa10944e8c"],
    ];
    const data = (await embed({ input: recorded.map(([text]) => text) })).data;
    expect(data.tokens).toEqual(recorded.map(([, tokens]) => tokens));
    expect(data.embeddings.map(sha256OfFloat32)).toEqual(recorded.map(([, , hash]) => hash));
  });

  it("represents 129 to 512 tokens whole: the token-weighted mean of near-equal 128-token windows", async () => {
    // Every word here is one token, so windows can be rebuilt as texts of their own.
    const tokens = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => ONE_TOKEN_WORDS[(i + offset) % ONE_TOKEN_WORDS.length]);
    const text129 = tokens(129).join(" ");
    const first = tokens(129).slice(0, 65).join(" ");
    const second = tokens(129).slice(65).join(" ");
    const data = (await embed({ input: [text129, first, second], normalize: false })).data;
    expect(data.tokens).toEqual([129, 65, 64]);
    expect(data.truncated).toEqual([false, false, false]);
    expect(data.warnings).toEqual([]);
    const [whole, v1, v2] = data.embeddings as number[][];
    const expected = v1.map((x, d) => Math.fround((x * 65 + v2[d] * 64) / 129));
    expect(whole).toEqual(expected);

    // 512 tokens: four windows of 128; a change past token 128 now changes the vector.
    const text512 = tokens(512).join(" ");
    const windows = [0, 1, 2, 3].map((w) =>
      tokens(512)
        .slice(w * 128, (w + 1) * 128)
        .join(" "),
    );
    const changedTail = [...tokens(500), ...tokens(12, 7)].join(" ");
    const long = (await embed({ input: [text512, ...windows, changedTail], normalize: false })).data;
    expect(long.tokens).toEqual([512, 128, 128, 128, 128, 512]);
    expect(long.truncated).toEqual([false, false, false, false, false, false]);
    expect(long.usage.total_tokens).toBe(512 * 2 + 4 * 128);
    const mean = long.embeddings[1].map((_: number, d: number) =>
      Math.fround((long.embeddings.slice(1, 5) as number[][]).reduce((sum, v) => sum + v[d] * 128, 0) / 512),
    );
    expect(long.embeddings[0]).toEqual(mean);
    expect(long.embeddings[5]).not.toEqual(long.embeddings[0]);
  }, 60_000);

  it("cuts texts past 512 tokens to their first 512, says so in truncated and warnings, and counts 512 in usage", async () => {
    const data = (await embed({ input: [repeat("cat", 512), repeat("cat", 513), repeat("cat", 2000)] })).data;
    expect(data.tokens).toEqual([512, 513, 2000]);
    expect(data.truncated).toEqual([false, true, true]);
    expect(data.usage.total_tokens).toBe(3 * 512);
    expect(data.embeddings[1]).toEqual(data.embeddings[0]);
    expect(data.embeddings[2]).toEqual(data.embeddings[0]);
    expect(data.warnings).toEqual([
      {
        index: 1,
        field: "input[1]",
        code: "truncated",
        message: "input[1] has 513 tokens; universal-sentence-encoder-lite embeds the first 512 and leaves the rest out.",
      },
      {
        index: 2,
        field: "input[2]",
        code: "truncated",
        message: "input[2] has 2000 tokens; universal-sentence-encoder-lite embeds the first 512 and leaves the rest out.",
      },
    ]);
  }, 60_000);

  it("warns, per input, about a text the English-only model does not read, and leaves its vector as it is", async () => {
    const res = await embed({ input: ["The cat is on the sofa.", "Le chat est sur le canapé.", "How do I reset my password?", "猫在沙发上"] });
    expect(res.status).toBe(200);
    const data = res.data;
    expect(sha256OfFloat32(data.embeddings[1])).toBe("b0e96c48cc0a4652ebf50663afde71ba4024d93da8daff65b40198522ce1daed");
    const suggestion = "Embed it with /embed/multilingual (paraphrase-multilingual-mpnet-base-v2, not installed on this server).";
    expect(data.warnings).toEqual([
      {
        index: 1,
        field: "input[1]",
        code: "language_not_supported",
        language: "fra",
        message: `input[1] looks like French; universal-sentence-encoder-lite reads English only, so its vector does not place it near texts of the same meaning. ${suggestion}`,
      },
      {
        index: 3,
        field: "input[3]",
        code: "language_not_supported",
        language: "cmn",
        message: `input[3] looks like Chinese; universal-sentence-encoder-lite reads English only, so its vector does not place it near texts of the same meaning. ${suggestion}`,
      },
    ]);
  });

  it("accepts 100 texts of 10,000 characters and refuses 101 texts with the count", async () => {
    // Five distinct texts of 512 tokens and more (four windows each), each sent 20 times: a request embeds a text once.
    const texts = Array.from({ length: 100 }, (_, i) => `${i % 5} ${"lorem ipsum dolor sit amet ".repeat(400)}`.slice(0, 10_000));
    const full = await embed({ input: texts });
    expect(full.status).toBe(200);
    expect(full.data.embeddings).toHaveLength(100);
    expect(full.data.truncated.every(Boolean)).toBe(true);
    const over = await embed({ input: [...texts.slice(0, 100), "one more"] });
    expect(over.status).toBe(413);
    expect(over.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: [{ field: "input", issue: "has 101 texts; at most 100 per request" }] });
  }, 300_000);

  it("refuses a 1 MB text with 413 naming it", async () => {
    const res = await embed({ input: ["fine", "x".repeat(1024 * 1024)] });
    expect(res.status).toBe(413);
    expect(res.error.details?.[0]).toEqual({
      field: "input[1]",
      issue: "has 1048576 characters; at most 100000 per text (texts are cut at the model's token limit anyway)",
    });
  });

  it("refuses empty, blank and malformed texts, naming each", async () => {
    const res = await embed({ input: ["ok", "", "  \n\t "] });
    expect(res.status).toBe(400);
    expect(res.error.details?.map((d) => d.field)).toEqual(["input[1]", "input[2]"]);
    // Raw JSON: JSON.stringify cannot write a lone surrogate.
    const surrogate = await call(h.started, S.Embeddings, {
      method: "POST",
      url: "/embed",
      headers: { ...h.caller.headers, "content-type": "application/json" },
      payload: '{"input":["fine","a\\ud800b"]}',
    });
    expect(surrogate.status).toBe(400);
    expect(surrogate.error.details).toEqual([{ field: "input[1]", issue: "must not contain a lone UTF-16 surrogate (text that is not valid Unicode)" }]);
    expect((await embed({ input: [] })).error.details?.[0]).toEqual({ field: "input", issue: "must hold at least one text" });
    expect((await embed({ input: [1, 2] })).status).toBe(400);
    expect((await embed({})).status).toBe(400);
  });

  it("embeds emoji, accents and other scripts", async () => {
    const res = await embed({ input: ["café crème 🎉", "日本語のテキスト", "Ελληνικά"] });
    expect(res.status).toBe(200);
    expect(res.data.embeddings.every((v: number[]) => v.length === 512 && v.every(Number.isFinite))).toBe(true);
  });
});

describe("models", () => {
  it("answers 503 MODEL_UNAVAILABLE for a known model whose weights are not installed, never another model", async () => {
    const res = await embed({ input: "Hello", model: "all-MiniLM-L6-v2" });
    expect(res.status).toBe(503);
    expect(res.error.code).toBe("MODEL_UNAVAILABLE");
    // What is missing and how to install it is the operator's business (logged at start-up), not the subscriber's.
    expect(res.error.message).toBe(
      "The model all-MiniLM-L6-v2 is not available on this deployment. Models available here: universal-sentence-encoder-lite (see GET /models).",
    );
    expect(res.error.details).toEqual([{ field: "model", issue: "all-MiniLM-L6-v2 is not available on this deployment" }]);
  });

  it("serves /embed/multilingual only with the multilingual model", async () => {
    const multilingual = (payload: object) => call(h.started, S.Embeddings, { method: "POST", url: "/embed/multilingual", headers: h.caller.headers, payload });
    const res = await multilingual({ input: "Bonjour le monde" });
    expect(res.status).toBe(503);
    expect(res.error.message).toContain("paraphrase-multilingual-mpnet-base-v2");
    const wrong = await multilingual({ input: "Bonjour", model: "use-lite" });
    expect(wrong.status).toBe(400);
    expect(wrong.error.details?.[0].field).toBe("model");
  });

  it("refuses an unknown model with 400 listing the known ones", async () => {
    const res = await embed({ input: "Hello", model: "gpt-5" });
    expect(res.status).toBe(400);
    expect(res.error.details?.[0].issue).toContain("universal-sentence-encoder-lite");
  });

  it("accepts a model by alias", async () => {
    const res = await embed({ input: "Hello", model: "use-lite" });
    expect(res.data.model).toBe("universal-sentence-encoder-lite");
  });
});

describeAuth({ started: () => h.started, method: "POST", url: "/embed", payload: { input: "Hello" } });
