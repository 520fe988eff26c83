import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddings, norm, type Harness } from "./support/service.js";

let h: Harness;
beforeAll(async () => {
  h = await startEmbeddings();
}, 120_000);
afterAll(() => h?.started.close());

const call = (payload: object) => h.post("/v1/embeddings", payload);

describe("POST /v1/embeddings (OpenAI-compatible)", () => {
  it("answers OpenAI's shape, without the envelope", async () => {
    const res = await call({ input: ["The food was delicious.", "The service was slow."], model: "universal-sentence-encoder-lite" });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(["data", "model", "object", "usage"]);
    expect(body.object).toBe("list");
    expect(body.model).toBe("universal-sentence-encoder-lite");
    expect(body.data.map((d: { object: string; index: number }) => [d.object, d.index])).toEqual([
      ["embedding", 0],
      ["embedding", 1],
    ]);
    expect(norm(body.data[0].embedding)).toBeCloseTo(1, 5);
    expect(body.usage.prompt_tokens).toBe(body.usage.total_tokens);
    const same = (await h.post("/embed", { input: ["The food was delicious.", "The service was slow."] })).json().data;
    expect(body.data[0].embedding).toEqual(same.embeddings[0]);
    expect(body.usage.total_tokens).toBe(same.usage.total_tokens);
  });

  it("encodes base64 as little-endian float32, the same numbers as the float format", async () => {
    const floats = (await call({ input: "Hello world" })).json().data[0].embedding as number[];
    const encoded = (await call({ input: "Hello world", encoding_format: "base64" })).json().data[0].embedding as string;
    const bytes = Buffer.from(encoded, "base64");
    expect(bytes.length).toBe(512 * 4);
    const decoded = Array.from({ length: 512 }, (_, i) => bytes.readFloatLE(i * 4));
    expect(decoded).toEqual(floats);
  });

  it("takes no model as the default model", async () => {
    expect((await call({ input: "Hello" })).json().model).toBe("universal-sentence-encoder-lite");
  });

  it("accepts dimensions only when they are the model's", async () => {
    expect((await call({ input: "Hello", dimensions: 512 })).statusCode).toBe(200);
    const res = await call({ input: "Hello", dimensions: 256 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0]).toMatchObject({ field: "dimensions" });
  });

  it("adds warnings beside OpenAI's fields only when a text is cut or not in the model's language", async () => {
    const res = await h.post("/v1/embeddings", { input: ["The food was delicious.", "La nourriture était délicieuse et le service très rapide."] });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(["data", "model", "object", "usage", "warnings"]);
    expect(res.json().warnings).toMatchObject([{ index: 1, field: "input[1]", code: "language_not_supported", language: "fra" }]);
  });

  it("keeps the envelope for errors", async () => {
    const res = await call({ input: Array(101).fill("x") });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ status: "error", error: { code: "PAYLOAD_TOO_LARGE" } });
    expect((await call({ input: "x", encoding_format: "int8" })).statusCode).toBe(400);
    expect((await call({ input: "x", model: "text-embedding-3-small" })).statusCode).toBe(400);
  });
});
