import { AutoTokenizer, env } from "@huggingface/transformers";
env.allowRemoteModels = false; env.localModelPath = "/work/shared/models/";
const t = await AutoTokenizer.from_pretrained("Xenova/all-MiniLM-L6-v2");
const text = Array(40).fill("hello").join(" ");
const e = t(text, { truncation: true, max_length: 32 });
console.log(e.input_ids.dims, Array.from(e.input_ids.data).map(Number).join(","));
