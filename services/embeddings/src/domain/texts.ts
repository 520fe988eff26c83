/** Which texts the service accepts, and why not: pure checks that name the field and the bound. */
import type { ErrorDetail } from "@apiplat/service-kit";

/** The most texts one request may embed. */
export const MAX_TEXTS = 100;
/**
 * The longest text accepted, in UTF-16 code units. A text is cut at the model's token limit anyway, and a
 * token is rarely longer than 20 characters; past this bound the rest could never be embedded.
 */
const MAX_TEXT_CHARACTERS = 100_000;

type TextProblem = { kind: "invalid" | "too_large"; detail: ErrorDetail };

/** The first problem with one text, or null when it can be embedded. */
export function checkText(text: string, field: string): TextProblem | null {
  if (text.length > MAX_TEXT_CHARACTERS) {
    return {
      kind: "too_large",
      detail: { field, issue: `has ${text.length} characters; at most ${MAX_TEXT_CHARACTERS} per text (texts are cut at the model's token limit anyway)` },
    };
  }
  if (text.trim().length === 0) {
    return { kind: "invalid", detail: { field, issue: "is empty or only white space; send text with at least one visible character" } };
  }
  const lone = loneSurrogateAt(text);
  if (lone >= 0) {
    const unit = text.charCodeAt(lone).toString(16).toUpperCase();
    return {
      kind: "invalid",
      detail: { field, issue: `has a lone surrogate (U+${unit}) at character ${lone}; send well-formed Unicode text` },
    };
  }
  return null;
}

/** The position of the first UTF-16 surrogate without its pair, or -1. */
export function loneSurrogateAt(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (unit >= 0xdc00 && unit <= 0xdfff) return i;
  }
  return -1;
}

/** `input` as a list, with the name each text goes by in error details (`input` or `input[3]`). */
export function listTexts(input: string | string[], field: string): { texts: string[]; fields: string[] } {
  if (typeof input === "string") return { texts: [input], fields: [field] };
  return { texts: input, fields: input.map((_, i) => `${field}[${i}]`) };
}
