/** 100 KB of text, counted in UTF-8 bytes (102,400), on every endpoint that takes text. */
const MAX_TEXT_BYTES = 100 * 1024;
export const TEXT_LIMIT_ISSUE = `must be at most ${MAX_TEXT_BYTES} bytes (100 KB) of UTF-8`;

export function exceedsTextLimit(text: string): boolean {
  // Cheap first: a string of n UTF-16 units holds at most 3n UTF-8 bytes.
  return text.length * 3 > MAX_TEXT_BYTES && Buffer.byteLength(text, "utf8") > MAX_TEXT_BYTES;
}
