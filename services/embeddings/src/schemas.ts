import { Type, type Static } from "typebox";
import { MAX_TEXTS } from "./domain/texts.js";

const Texts = Type.Union([Type.String(), Type.Array(Type.String())], {
  description: `a text, or a list of up to ${MAX_TEXTS} texts`,
});
const ModelName = Type.String({ maxLength: 200, description: "a model id or alias from GET /models; default: the best installed model" });

export const EmbedBody = Type.Object(
  {
    input: Texts,
    model: Type.Optional(ModelName),
    normalize: Type.Optional(Type.Boolean({ description: "scale each vector to length 1 (L2); default true" })),
  },
  { examples: [{ input: ["The cat sits on the mat.", "A feline rests on a rug."] }] },
);
export type EmbedBody = Static<typeof EmbedBody>;

const Usage = Type.Object({ total_tokens: Type.Integer({ description: "tokens embedded, after truncation" }) });

const InputWarnings = Type.Array(
  Type.Object({
    index: Type.Integer({ description: "position of the text in the request (the query or source first)" }),
    field: Type.String(),
    code: Type.Union([Type.Literal("truncated"), Type.Literal("language_not_supported")]),
    language: Type.Optional(Type.String({ description: "the language detected (ISO 639-3)" })),
    message: Type.String(),
  }),
  { description: "texts cut at the token limit, or not in the language of an English-only model; empty when none" },
);

export const Embeddings = Type.Object({
  model: Type.String(),
  dimensions: Type.Integer(),
  normalized: Type.Boolean(),
  embeddings: Type.Array(Type.Array(Type.Number()), { description: "one vector per input, in input order" }),
  tokens: Type.Array(Type.Integer(), { description: "tokens each input has, before truncation" }),
  truncated: Type.Array(Type.Boolean(), { description: "whether each input was cut at the model's token limit" }),
  usage: Usage,
  warnings: InputWarnings,
});

export const SimilarityBody = Type.Object(
  {
    text_1: Type.Optional(Type.String()),
    text_2: Type.Optional(Type.String()),
    source_sentence: Type.Optional(Type.String()),
    sentences: Type.Optional(Type.Array(Type.String())),
    inputs: Type.Optional(Type.Object({ source_sentence: Type.String(), sentences: Type.Array(Type.String()) }, { description: "the TEI shape" })),
    model: Type.Optional(ModelName),
  },
  {
    description: "Either text_1 and text_2, or source_sentence and sentences (also accepted inside `inputs`, as TEI takes them).",
    examples: [{ text_1: "How old are you?", text_2: "What is your age?" }],
  },
);
export type SimilarityBody = Static<typeof SimilarityBody>;

export const Similarity = Type.Object({
  model: Type.String(),
  similarity: Type.Optional(Type.Number({ description: "cosine similarity of text_1 and text_2" })),
  scores: Type.Optional(Type.Array(Type.Number(), { description: "cosine similarity of source_sentence with each sentence" })),
  usage: Usage,
  warnings: InputWarnings,
});

export const RerankBody = Type.Object(
  {
    query: Type.String(),
    documents: Type.Array(Type.String(), { description: `up to ${MAX_TEXTS} documents` }),
    top_n: Type.Optional(Type.Integer({ minimum: 1, description: "keep the best n; default all" })),
    return_documents: Type.Optional(Type.Boolean({ description: "include each document's text; default false" })),
    model: Type.Optional(ModelName),
  },
  { examples: [{ query: "How do I reset my password?", documents: ["Resetting your password", "Our office hours"], top_n: 1 }] },
);
export type RerankBody = Static<typeof RerankBody>;

export const Reranked = Type.Object({
  model: Type.String(),
  results: Type.Array(Type.Object({ index: Type.Integer(), score: Type.Number(), document: Type.Optional(Type.String()) }), {
    description: "documents by cosine similarity to the query, best first",
  }),
  usage: Usage,
  warnings: InputWarnings,
});

const ModelView = Type.Object({
  id: Type.String(),
  aliases: Type.Array(Type.String()),
  dimensions: Type.Integer(),
  max_tokens: Type.Integer({ description: "tokens of a text that are embedded; past them the text is truncated" }),
  window_tokens: Type.Optional(
    Type.Integer({ description: "tokens the model reads at once: a longer text is embedded in windows whose vectors are averaged" }),
  ),
  languages: Type.Array(Type.String()),
  pooling: Type.String(),
  runtime: Type.String(),
  installed: Type.Boolean(),
  default: Type.Boolean({ description: "used by /embed when no model is named" }),
  endpoint: Type.String({ description: "the path that serves it without a model field" }),
  licence: Type.String(),
});
export const Models = Type.Object({ models: Type.Array(ModelView), default_model: Type.Union([Type.String(), Type.Null()]) });

export const OpenAiBody = Type.Object(
  {
    input: Texts,
    model: Type.Optional(ModelName),
    encoding_format: Type.Optional(Type.Union([Type.Literal("float"), Type.Literal("base64")], { description: "default float" })),
    dimensions: Type.Optional(Type.Integer({ minimum: 1, description: "accepted only when equal to the model's dimensions" })),
    user: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { examples: [{ input: "The food was delicious.", model: "universal-sentence-encoder-lite" }] },
);
export type OpenAiBody = Static<typeof OpenAiBody>;

export const OpenAiList = Type.Object({
  object: Type.Literal("list"),
  data: Type.Array(
    Type.Object({
      object: Type.Literal("embedding"),
      index: Type.Integer(),
      embedding: Type.Union([Type.Array(Type.Number()), Type.String()]),
    }),
  ),
  model: Type.String(),
  usage: Type.Object({ prompt_tokens: Type.Integer(), total_tokens: Type.Integer() }),
  warnings: Type.Optional(InputWarnings),
});
