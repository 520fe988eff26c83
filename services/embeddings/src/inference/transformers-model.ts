/** The sentence-transformers models through transformers.js and ONNX Runtime, from local files only. */
import path from "node:path";
import { AutoModel, AutoTokenizer, env, type PreTrainedModel, type PreTrainedTokenizer, type Tensor } from "@huggingface/transformers";
import { meanPool } from "../domain/vectors.js";
import type { LoadedModel, WorkerModel } from "./protocol.js";

export async function loadTransformersModel(model: WorkerModel, modelsDir: string): Promise<LoadedModel> {
  if (!model.folder || !model.weights) throw new Error(`model ${model.id} has no local folder or weights`);
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.useFSCache = false;
  env.localModelPath = modelsDir.endsWith(path.sep) ? modelsDir : modelsDir + path.sep;
  const tokenizer: PreTrainedTokenizer = await AutoTokenizer.from_pretrained(model.folder, { local_files_only: true });
  const network: PreTrainedModel = await AutoModel.from_pretrained(model.folder, {
    local_files_only: true,
    device: "cpu",
    dtype: model.weights.dtype,
    ...(model.weights.modelFileName ? { model_file_name: model.weights.modelFileName } : {}),
    // One worker is one core.
    session_options: { intraOpNumThreads: 1, interOpNumThreads: 1 },
  });
  return {
    async embedOne(text) {
      const tokens = (tokenizer(text, { truncation: false }).input_ids as Tensor).dims[1];
      const inputs = tokenizer(text, { truncation: true, max_length: model.maxTokens });
      const output = await network(inputs);
      const hidden = output.last_hidden_state as Tensor;
      const [, length, dimensions] = hidden.dims;
      const mask = (inputs.attention_mask as Tensor).data as BigInt64Array;
      return { vector: meanPool(hidden.data as Float32Array, length, dimensions, mask), tokens };
    },
  };
}
