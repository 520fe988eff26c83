/** Snippets as SerpAPI gives them: the plain text, and the words it highlights listed apart (snippet_highlighted_words). */
import { headline, wordOffsets, type HeadlineOptions, type WordMatcher } from "@apiplat/catalogue";

/** The markers put around matched words while a snippet is made; never in indexed text. */
const HIGHLIGHT_START = "\u0002";
const HIGHLIGHT_STOP = "\u0003";

/** Up to two fragments of at most 30 words around the matched words; a body without them shows its first 15 words. */
const SNIPPET: HeadlineOptions = { start: HIGHLIGHT_START, stop: HIGHLIGHT_STOP, maxWords: 30, minWords: 15, maxFragments: 2, delimiter: " … " };

/** What a page's snippet is made of: its body (its title when the body is empty), read in its text-search configuration. */
interface SnippetSource {
  title: string;
  body: string;
  text_config: string;
}

/**
 * How much of a page its snippet is made from: the words of its first 16 KiB (16,384 UTF-16 code units; a word
 * running past them is left out). A crawled page's text may run to megabytes, and a snippet's cost is its text's
 * length (every word is read and, when it could match, stemmed): up to 100 results a search, that bound is what keeps
 * any search's snippets to a few tens of milliseconds. Every page of the datasets is shorter (the longest has 15,677),
 * so their snippets are those of the whole text; a longer page's snippet shows its matches within the bound, or its
 * opening when none lies there.
 */
export const SNIPPET_TEXT_UNITS = 16 * 1024;

/** A page's snippet with the matched words between the markers: fragments of the body around the matches, else its opening. */
export function markedSnippet(page: SnippetSource, matcher: WordMatcher): string {
  const text = page.body === "" ? page.title : page.body;
  let offsets = wordsOfPages.get(page);
  if (!offsets) wordsOfPages.set(page, (offsets = wordOffsets(text, SNIPPET_TEXT_UNITS)));
  return headline(text, matcher, page.text_config, SNIPPET, offsets);
}

/** The words of the pages held in memory, found once: they go with their snapshot's rows. */
const wordsOfPages = new WeakMap<SnippetSource, Int32Array>();

const HIGHLIGHTED = new RegExp(`${HIGHLIGHT_START}([^${HIGHLIGHT_START}${HIGHLIGHT_STOP}]*)${HIGHLIGHT_STOP}`, "g");
const MARKERS = new RegExp(`[${HIGHLIGHT_START}${HIGHLIGHT_STOP}]`, "g");

interface Snippet {
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
