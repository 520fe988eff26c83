import { Type, type Static } from "typebox";
import { LANGUAGES } from "./domain/languages.js";
import { STYLES } from "./domain/styles.js";

/** Characters a text field may hold: the body limit's worth; the token and word limits are checked after. */
const TEXT_MAX_CHARS = 1_500_000;
const URL_MAX_CHARS = 2_048;
const LENGTH_BOUNDS = { minimum: 1, maximum: 10 };

const Text = Type.String({ maxLength: TEXT_MAX_CHARS, description: "The text to summarize (plain text; blank lines separate paragraphs)." });
const Url = Type.String({ minLength: 1, maxLength: URL_MAX_CHARS, description: "An http(s) page (HTML, PDF or plain text) to fetch and read." });
const Language = Type.Enum(LANGUAGES, { description: "ISO 639-1 code; detected when absent." });
const Style = Type.Enum(STYLES, { description: "formal, casual or technical (see the README for each one's effect)." });
const Mode = Type.Union([Type.Literal("extractive"), Type.Literal("abstractive")], { description: "extractive (default) or abstractive." });
const MinLength = Type.Integer({ ...LENGTH_BOUNDS, description: "Fewest sentences in the summary, 1 to 10 (default 2)." });
const MaxLength = Type.Integer({ ...LENGTH_BOUNDS, description: "Most sentences in the summary, 1 to 10 (default 5)." });

/** Where the text comes from: given, fetched from a URL, or both. */
const SourceFields = { text: Type.Optional(Text), url: Type.Optional(Url) };
const SummaryOptions = {
  min_length: Type.Optional(MinLength),
  max_length: Type.Optional(MaxLength),
  style: Type.Optional(Style),
  mode: Type.Optional(Mode),
  language: Type.Optional(Language),
};

export const SummarizeBody = Type.Object({ ...SourceFields, ...SummaryOptions }, { additionalProperties: false });
export type SummarizeBody = Static<typeof SummarizeBody>;

export const SummarizeUrlBody = Type.Object({ url: Url, ...SummaryOptions }, { additionalProperties: false });

export const BulletPointsBody = Type.Object(
  {
    ...SourceFields,
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, description: "How many takeaways, 1 to 10 (default 5)." })),
    language: Type.Optional(Language),
  },
  { additionalProperties: false },
);

export const KeywordsBody = Type.Object(
  {
    ...SourceFields,
    top_n: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: "How many phrases, 1 to 50 (default 10)." })),
    language: Type.Optional(Language),
  },
  { additionalProperties: false },
);

export const Source = Type.Object({
  kind: Type.Union([Type.Literal("text"), Type.Literal("url"), Type.Literal("text_and_url")]),
  title: Type.Union([Type.String(), Type.Null()], { description: "The page's title, for url sources." }),
  url: Type.Union([Type.String(), Type.Null()], { description: "The URL that answered, after redirects." }),
  content_type: Type.Union([Type.Literal("html"), Type.Literal("pdf"), Type.Literal("text"), Type.Null()]),
});
export type Source = Static<typeof Source>;

const Sentence = Type.Object({
  index: Type.Integer({ description: "Position of the sentence in the source, from 0." }),
  text: Type.String(),
  score: Type.Number({ description: "0 to 1; 1 is the best sentence of the source." }),
});

const Counts = Type.Object({
  source_words: Type.Integer(),
  source_sentences: Type.Integer(),
  source_tokens: Type.Integer({ description: "As the 4,096-token limit counts them (see the README)." }),
  summary_words: Type.Integer(),
  summary_sentences: Type.Integer(),
});

const Common = {
  language: Language,
  language_detected: Type.Boolean({ description: "true when the language was detected rather than given." }),
  source: Source,
};

/** What every extractive summary answers, short text or long. */
const ExtractiveSummary = {
  summary: Type.String(),
  sentences: Type.Array(Sentence),
  mode: Type.Literal("extractive"),
  style: Type.Union([Style, Type.Null()]),
  ...Common,
};

export const Summary = Type.Object({
  ...ExtractiveSummary,
  counts: Counts,
  compression: Type.Number({ description: "summary words / source words." }),
});
export type Summary = Static<typeof Summary>;

export const LongSummary = Type.Object({
  ...ExtractiveSummary,
  chunk_count: Type.Integer(),
  chunks: Type.Array(Type.Object({ index: Type.Integer(), words: Type.Integer(), summary: Type.String(), sentences: Type.Array(Sentence) })),
  counts: Counts,
  compression: Type.Number(),
});

export const BulletPoints = Type.Object({
  bullets: Type.Array(Type.Object({ text: Type.String(), index: Type.Integer(), score: Type.Number() })),
  ...Common,
});

export const Keywords = Type.Object({
  keywords: Type.Array(Type.Object({ phrase: Type.String(), score: Type.Number(), count: Type.Integer() })),
  method: Type.Literal("rake"),
  ...Common,
});
