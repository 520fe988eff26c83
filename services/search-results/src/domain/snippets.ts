/** Snippets as SerpAPI gives them: the plain text, and the words it highlights listed apart (snippet_highlighted_words). */

/** The markers the database puts around matched words (ts_headline's StartSel/StopSel); never in indexed text. */
export const HIGHLIGHT_START = "\u0002";
export const HIGHLIGHT_STOP = "\u0003";

const HIGHLIGHTED = new RegExp(`${HIGHLIGHT_START}([^${HIGHLIGHT_STOP}]*)${HIGHLIGHT_STOP}`, "g");
const MARKERS = new RegExp(`[${HIGHLIGHT_START}${HIGHLIGHT_STOP}]`, "g");

export interface Snippet {
  snippet: string;
  snippet_highlighted_words: string[];
}

/** A marked headline -> the plain snippet and its highlighted words, each once, in order of appearance. */
export function splitHighlights(marked: string): Snippet {
  const words: string[] = [];
  for (const match of marked.matchAll(HIGHLIGHTED)) if (match[1] && !words.includes(match[1])) words.push(match[1]);
  const snippet = marked.replace(MARKERS, "").replace(/\s+/g, " ").trim();
  return { snippet, snippet_highlighted_words: words };
}
