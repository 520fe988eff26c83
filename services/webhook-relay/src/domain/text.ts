/**
 * Why PostgreSQL could not store `value` as text, in words for the client, or null when it can: text
 * columns refuse the NUL character, and a lone UTF-16 surrogate has no UTF-8 form (it would be stored
 * as U+FFFD, a different string from the one given). Captured bodies are bytes and never pass here.
 * The wording is the platform's (service-kit's text-safety rule), so either check answers the same.
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function textProblem(value: string): string | null {
  if (value.includes("\u0000")) return "must not contain a NUL character (\\u0000)";
  if (UNPAIRED_SURROGATE.test(value)) return "must not contain a lone UTF-16 surrogate (text that is not valid Unicode)";
  return null;
}
