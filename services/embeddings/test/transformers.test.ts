/** The transformers.js path end to end, on an ONNX model the suite writes itself and the real MiniLM tokenizer. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as ort from "onnxruntime-node";
import { loadConfig } from "@apiplat/config";
import { startService, type StartedService, type TestSubscriber } from "@apiplat/testing";
import service from "../src/service.js";
import { CATALOGUE, type ModelSpec } from "../src/domain/catalogue.js";
import { HIDDEN, installTinyBert, tinyBertOnnx } from "./support/tiny-bert.js";

const MAX_TOKENS = 32;
const CLS = 101;
const SEP = 102;
const HELLO = 7592;
const WORLD = 2088;

let started: StartedService;
let caller: TestSubscriber;
let modelsDir: string;
let session: ort.InferenceSession;

beforeAll(async () => {
  modelsDir = await mkdtemp(path.join(tmpdir(), "embeddings-models-"));
  const tokenizerDir = path.join(loadConfig(process.env).modelsDir, "Xenova", "all-MiniLM-L6-v2");
  const tiny = await installTinyBert(modelsDir, tokenizerDir, MAX_TOKENS);
  const tampered: ModelSpec = { ...tiny, id: "tiny-bert-tampered", weights: [{ ...tiny.weights[0], sha256: "0".repeat(64) }] };
  started = await startService(service, { env: { MODELS_DIR: modelsDir }, inject: { catalogue: [...CATALOGUE, tiny, tampered] } });
  caller = await started.subscribe("PRO");
  session = await ort.InferenceSession.create(tinyBertOnnx());
}, 120_000);
afterAll(async () => {
  await started?.close();
  await rm(modelsDir, { recursive: true, force: true });
});

const embed = (payload: object) => started.app.inject({ method: "POST", url: "/embed", headers: caller.headers, payload });

/** Mean pooling computed here, straight from the model's outputs for these token ids. */
async function expectedVector(ids: number[]): Promise<number[]> {
  const shape = [1, ids.length];
  const feeds = {
    input_ids: new ort.Tensor("int64", BigInt64Array.from(ids.map(BigInt)), shape),
    attention_mask: new ort.Tensor("int64", BigInt64Array.from(ids.map(() => 1n)), shape),
    token_type_ids: new ort.Tensor("int64", BigInt64Array.from(ids.map(() => 0n)), shape),
  };
  const hidden = (await session.run(feeds)).last_hidden_state.data as Float32Array;
  return Array.from({ length: HIDDEN }, (_, d) => {
    let sum = 0;
    for (let t = 0; t < ids.length; t++) sum += hidden[t * HIDDEN + d];
    return sum / ids.length;
  });
}

function expectClose(actual: number[], expected: number[]): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((value, i) => expect(value).toBeCloseTo(expected[i], 6));
}

describe("a transformers.js model from local files", () => {
  it("tokenizes with the MiniLM tokenizer and mean-pools the model's token vectors", async () => {
    const res = await embed({ input: "Hello world", model: "tiny-bert-test", normalize: false });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ model: "tiny-bert-test", dimensions: HIDDEN, normalized: false, tokens: [4], truncated: [false], usage: { total_tokens: 4 } });
    expectClose(data.embeddings[0], await expectedVector([CLS, HELLO, WORLD, SEP]));
  });

  it("normalizes to unit length by default", async () => {
    const data = (await embed({ input: "Hello world", model: "tiny-bert-test" })).json().data;
    const raw = await expectedVector([CLS, HELLO, WORLD, SEP]);
    const norm = Math.hypot(...raw);
    expectClose(
      data.embeddings[0],
      raw.map((v) => v / norm),
    );
    expect(Math.hypot(...data.embeddings[0])).toBeCloseTo(1, 6);
  });

  it("cuts a text at the model's token limit and says so", async () => {
    const text = Array(40).fill("hello").join(" ");
    const data = (await embed({ input: [text, "Hello world"], model: "tiny-bert-test", normalize: false })).json().data;
    expect(data.tokens).toEqual([42, 4]);
    expect(data.truncated).toEqual([true, false]);
    expect(data.usage.total_tokens).toBe(MAX_TOKENS + 4);
    expectClose(data.embeddings[0], await expectedVector([CLS, ...Array(MAX_TOKENS - 2).fill(HELLO), SEP]));
  });

  it("gives bitwise the same vector alone and inside any batch", async () => {
    const alone = (await embed({ input: "Hello world", model: "tiny-bert-test" })).json().data.embeddings[0];
    const batch = ["A first sentence.", "Hello world", "Something else entirely, and longer than the others by far."];
    const inBatch = (await embed({ input: batch, model: "tiny-bert-test" })).json().data.embeddings[1];
    expect(inBatch).toEqual(alone);
  });

  it("refuses weights whose sha256 does not match, naming the model", async () => {
    const res = await embed({ input: "Hello world", model: "tiny-bert-tampered" });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe("MODEL_UNAVAILABLE");
    // The checksum that failed is in the operator's start-up log; the subscriber learns only that the model is not here.
    expect(res.json().error.message).toMatch(/^The model tiny-bert-tampered is not available on this deployment\. Models available here: /);
    expect(res.json().error.message).not.toContain("sha256");
  });

  it("lists the tiny model as installed and the tampered one as not", async () => {
    const models = (await started.app.inject({ method: "GET", url: "/models", headers: caller.headers })).json().data.models;
    expect(models.find((m: { id: string }) => m.id === "tiny-bert-test")).toMatchObject({ installed: true, dimensions: HIDDEN, max_tokens: MAX_TOKENS });
    expect(models.find((m: { id: string }) => m.id === "tiny-bert-tampered")).toMatchObject({ installed: false });
  });
});
