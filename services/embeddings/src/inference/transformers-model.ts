/** The sentence-transformers models through transformers.js and ONNX Runtime, from local files only. */
import path from "node:path";
import { AutoModel, AutoTokenizer, env, Tensor, type PreTrainedModel, type PreTrainedTokenizer } from "@huggingface/transformers";
import { cutKeepingLast } from "../domain/truncation.js";
import { meanPool } from "../domain/vectors.js";
import type { EmbedResult, LoadedModel, WorkerModel } from "./protocol.js";

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
  const embedOne = async (text: string) => {
    // transformers.js' own truncation drops the closing [SEP]; sentence-transformers keeps it.
    const encoded = tokenizer(text, { truncation: false }) as Record<string, Tensor>;
    const tokens = encoded.input_ids.dims[1];
    const inputs = Object.fromEntries(
      Object.entries(encoded).map(([name, tensor]) => {
        const kept = cutKeepingLast(tensor.data as BigInt64Array, model.maxTokens);
        return [name, new Tensor(tensor.type, kept, [1, kept.length])];
      }),
    );
    const output = await network(inputs);
    const hidden = output.last_hidden_state as Tensor;
    const [, length, dimensions] = hidden.dims;
    const mask = inputs.attention_mask.data as BigInt64Array;
    return { vector: meanPool(hidden.data as Float32Array, length, dimensions, mask), tokens };
  };
  return {
    // One text per run: no padding, so a text's vector never depends on its neighbours.
    async embed(texts) {
      const result: EmbedResult = { vectors: [], tokens: [] };
      for (const text of texts) {
        const { vector, tokens } = await embedOne(text);
        result.vectors.push(vector);
        result.tokens.push(tokens);
      }
      return result;
    },
  };
}
