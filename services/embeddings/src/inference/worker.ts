/** An inference worker thread: loads each model once, on first use, and embeds batches of texts. */
import { workerData } from "node:worker_threads";
import type { EmbedResult, EmbedTask, LoadedModel, WorkerModel, WorkerSettings } from "./protocol.js";
import { loadTransformersModel } from "./transformers-model.js";
import { loadUseLite } from "./use-lite.js";

const settings = workerData as WorkerSettings;
const loaded = new Map<string, Promise<LoadedModel>>();

function load(model: WorkerModel): Promise<LoadedModel> {
  let found = loaded.get(model.id);
  if (!found) {
    found = model.runtime === "tfjs-use" ? loadUseLite(model, settings.tfjsBackend) : loadTransformersModel(model, settings.modelsDir);
    found.catch(() => loaded.delete(model.id));
    loaded.set(model.id, found);
  }
  return found;
}

export default async function embed(task: EmbedTask): Promise<EmbedResult> {
  const model = await load(task.model);
  return model.embed(task.texts);
}
