/** How a query is matched. */

const OPERATORS = /["]|(^|\s)-\S|\bOR\b/;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A plain query (no "phrase", -exclusion or OR) of two words or more as websearch syntax for "any of these words";
 * null for a query of one word or one that uses operators (it means exactly what it says).
 */
export function anyWordText(text: string): string | null {
  if (OPERATORS.test(text)) return null;
  const words = [...text.matchAll(WORD)].map((m) => m[0]);
  return words.length >= 2 ? words.join(" OR ") : null;
}
