/**
 * English words (the `word-list` package: 274,136 words, lower case, one per line, sorted), to tell a rare but real
 * word of the index ("comprehension", in one biography) from a rare misspelling of a common one ("cofee", in one
 * coffee post): only the latter gets a "Did you mean". Read on first use, kept as the file's text and the offsets of
 * its lines (about 3.6 MB), looked up by binary search.
 */
import { readFileSync } from "node:fs";
import wordListPath from "word-list";

let words: { text: string; starts: Int32Array } | undefined;

function load(): { text: string; starts: Int32Array } {
  const text = readFileSync(wordListPath, "utf8");
  const starts: number[] = [0];
  for (let at = text.indexOf("\n"); at !== -1 && at + 1 < text.length; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return { text, starts: Int32Array.from(starts) };
}

function wordAt(list: { text: string; starts: Int32Array }, i: number): string {
  const end = i + 1 < list.starts.length ? list.starts[i + 1] - 1 : list.text.length;
  return list.text.slice(list.starts[i], end).trimEnd();
}

/** Whether `word` (any case) is an English word of the list. */
export function isEnglishWord(word: string): boolean {
  words ??= load();
  const wanted = word.toLowerCase();
  let [low, high] = [0, words.starts.length - 1];
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const found = wordAt(words, mid);
    if (found === wanted) return true;
    if (found < wanted) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}
