import { Type } from "typebox";
import { CASE_TYPES } from "./domain/case.js";
import { DEFAULT_WORDS_PER_MINUTE } from "./domain/count.js";
import { HASH_ALGORITHMS } from "./domain/hash.js";
import { PARAGRAPHS } from "./domain/lorem.js";
import { PASSWORD_LENGTH } from "./domain/password.js";
import { DEFAULT_SLUG_MAX_LENGTH } from "./domain/slug.js";

const Text = Type.String({ description: "Any text, at most 100 KB (102,400 bytes) of UTF-8" });
const oneOf = <T extends readonly string[]>(values: T, description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

const MAX_UUIDS = 100;

export const HashBody = Type.Object({
  text: Text,
  algorithm: Type.Optional(oneOf(HASH_ALGORITHMS, "default sha256")),
});
export const HashData = Type.Object({ algorithm: Type.String(), hash: Type.String(), encoding: Type.Literal("hex") });

export const UuidQuery = Type.Object({
  count: Type.Integer({ minimum: 1, maximum: MAX_UUIDS, default: 1, description: `1 to ${MAX_UUIDS}, default 1` }),
});
export const UuidData = Type.Object({ version: Type.Literal(4), count: Type.Integer(), uuids: Type.Array(Type.String({ format: "uuid" })) });

export const CaseBody = Type.Object({ text: Text, type: oneOf(CASE_TYPES) });
export const CaseData = Type.Object({ type: Type.String(), result: Type.String() });

export const SlugBody = Type.Object({
  text: Text,
  max_length: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: `default ${DEFAULT_SLUG_MAX_LENGTH}` })),
  separator: Type.Optional(oneOf(["-", "_", "."], "default -")),
});
export const SlugData = Type.Object({ slug: Type.String(), length: Type.Integer() });

export const CountBody = Type.Object({
  text: Text,
  words_per_minute: Type.Optional(Type.Integer({ minimum: 50, maximum: 1000, description: `default ${DEFAULT_WORDS_PER_MINUTE}` })),
});
export const CountData = Type.Object({
  characters: Type.Integer({ description: "grapheme clusters (what a reader sees as one character)" }),
  characters_excluding_spaces: Type.Integer(),
  words: Type.Integer(),
  lines: Type.Integer(),
  sentences: Type.Integer(),
  paragraphs: Type.Integer(),
  reading_time_seconds: Type.Integer(),
  reading_time_minutes: Type.Integer(),
  words_per_minute: Type.Integer(),
});

export const LoremQuery = Type.Object({
  paragraphs: Type.Integer({ minimum: PARAGRAPHS.min, maximum: PARAGRAPHS.max, default: PARAGRAPHS.default }),
  start_with_lorem: Type.Boolean({ default: true }),
});
export const LoremData = Type.Object({ paragraphs: Type.Array(Type.String()), text: Type.String(), words: Type.Integer() });

export const PasswordQuery = Type.Object({
  length: Type.Integer({ minimum: PASSWORD_LENGTH.min, maximum: PASSWORD_LENGTH.max, default: PASSWORD_LENGTH.default }),
  symbols: Type.Boolean({ default: false }),
  digits: Type.Boolean({ default: true }),
  uppercase: Type.Boolean({ default: true }),
  exclude_ambiguous: Type.Boolean({ default: false, description: "leave out I, l, 1, O, 0 and o" }),
});
export const PasswordData = Type.Object({
  password: Type.String(),
  length: Type.Integer(),
  character_classes: Type.Array(Type.String()),
  entropy_bits: Type.Number(),
});
