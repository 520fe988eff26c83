import slugify from "@sindresorhus/slugify";

export const DEFAULT_SLUG_MAX_LENGTH = 200;

/**
 * A lowercase, ASCII, hyphen-separated slug: letters are transliterated ("Crème Brûlée à Paris" ->
 * "creme-brulee-a-paris", "Straße" -> "strasse", "Москва" -> "moskva"). Cut at a word boundary so that
 * it fits `maxLength`; a single word longer than that is cut inside.
 */
export function toSlug(text: string, maxLength: number = DEFAULT_SLUG_MAX_LENGTH, separator = "-"): string {
  const full = slugify(text, { separator, lowercase: true, decamelize: false });
  if (full.length <= maxLength) return full;
  const cut = full.slice(0, maxLength + 1);
  const boundary = cut.lastIndexOf(separator);
  return boundary > 0 ? cut.slice(0, boundary) : full.slice(0, maxLength);
}
