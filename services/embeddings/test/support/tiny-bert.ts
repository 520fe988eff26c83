/**
 * A tiny BERT-shaped ONNX model, written by the test suite itself so that the transformers.js path runs end to end
 * without downloaded weights: word, position and token-type embeddings summed, one dense layer with tanh, output
 * `last_hidden_state` [batch, sequence, 16]. Random weights from a fixed seed; the real all-MiniLM-L6-v2 tokenizer.
 */
import { createHash } from "node:crypto";
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { onnx } from "onnx-proto";
import type { ModelSpec } from "../../src/domain/catalogue.js";

export const HIDDEN = 16;
const VOCAB = 30522;
const POSITIONS = 512;
const TOKENIZER_FILES = ["tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt"];

/** mulberry32: a small seeded generator, so that the model file is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function floats(name: string, dims: number[], next: () => number, scale: number): onnx.ITensorProto {
  const count = dims.reduce((a, b) => a * b, 1);
  const data = new Float32Array(count);
  for (let i = 0; i < count; i++) data[i] = (next() * 2 - 1) * scale;
  return { name, dims, dataType: onnx.TensorProto.DataType.FLOAT, rawData: new Uint8Array(data.buffer) };
}

function int64(name: string, value: number, dims: number[] = []): onnx.ITensorProto {
  return { name, dims, dataType: onnx.TensorProto.DataType.INT64, int64Data: [value] };
}

const tokenInput = (name: string): onnx.IValueInfoProto => ({
  name,
  type: { tensorType: { elemType: onnx.TensorProto.DataType.INT64, shape: { dim: [{ dimParam: "batch" }, { dimParam: "sequence" }] } } },
});

export function tinyBertOnnx(seed = 17): Uint8Array {
  const next = random(seed);
  const node = (opType: string, input: string[], output: string[]): onnx.INodeProto => ({ opType, input, output, name: output[0] });
  const graph: onnx.IGraphProto = {
    name: "tiny-bert",
    initializer: [
      floats("word_embeddings", [VOCAB, HIDDEN], next, 1),
      floats("position_embeddings", [POSITIONS, HIDDEN], next, 0.5),
      floats("token_type_embeddings", [2, HIDDEN], next, 0.5),
      floats("dense_weight", [HIDDEN, HIDDEN], next, 0.5),
      floats("dense_bias", [HIDDEN], next, 0.1),
      int64("zero", 0),
      int64("one", 1),
    ],
    node: [
      node("Gather", ["word_embeddings", "input_ids"], ["words"]),
      node("Gather", ["token_type_embeddings", "token_type_ids"], ["types"]),
      node("Shape", ["input_ids"], ["input_shape"]),
      node("Gather", ["input_shape", "one"], ["sequence_length"]),
      node("Range", ["zero", "sequence_length", "one"], ["position_ids"]),
      node("Gather", ["position_embeddings", "position_ids"], ["positions"]),
      node("Add", ["words", "types"], ["words_types"]),
      node("Add", ["words_types", "positions"], ["embedded"]),
      node("MatMul", ["embedded", "dense_weight"], ["projected"]),
      node("Add", ["projected", "dense_bias"], ["biased"]),
      node("Tanh", ["biased"], ["last_hidden_state"]),
    ],
    input: [tokenInput("input_ids"), tokenInput("attention_mask"), tokenInput("token_type_ids")],
    output: [
      {
        name: "last_hidden_state",
        type: {
          tensorType: {
            elemType: onnx.TensorProto.DataType.FLOAT,
            shape: { dim: [{ dimParam: "batch" }, { dimParam: "sequence" }, { dimValue: HIDDEN }] },
          },
        },
      },
    ],
  };
  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: "", version: 13 }],
    producerName: "apiplat-embeddings-tests",
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

/**
 * Writes the model in transformers.js' layout under `modelsDir/test/tiny-bert` with the real MiniLM tokenizer and
 * returns its catalogue entry (weights checked by sha256 like the real models).
 */
export async function installTinyBert(modelsDir: string, tokenizerDir: string, maxTokens: number): Promise<ModelSpec> {
  const folder = "test/tiny-bert";
  const target = path.join(modelsDir, folder);
  await mkdir(path.join(target, "onnx"), { recursive: true });
  for (const file of TOKENIZER_FILES) await copyFile(path.join(tokenizerDir, file), path.join(target, file));
  const config = {
    model_type: "bert",
    architectures: ["BertModel"],
    hidden_size: HIDDEN,
    vocab_size: VOCAB,
    max_position_embeddings: POSITIONS,
    num_attention_heads: 1,
    num_hidden_layers: 1,
    type_vocab_size: 2,
  };
  await writeFile(path.join(target, "config.json"), JSON.stringify(config));
  const bytes = tinyBertOnnx();
  await writeFile(path.join(target, "onnx", "model.onnx"), bytes);
  return {
    id: "tiny-bert-test",
    aliases: [],
    dimensions: HIDDEN,
    maxTokens,
    languages: ["en"],
    pooling: "mean",
    runtime: "transformers",
    folder,
    requiredFiles: ["config.json", "tokenizer.json", "tokenizer_config.json"],
    weights: [{ file: "onnx/model.onnx", dtype: "fp32", bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") }],
    defaultRank: 0,
    multilingual: false,
    licence: "test only",
    install: "Built by the test suite.",
  };
}
