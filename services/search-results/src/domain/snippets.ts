/** Snippets as SerpAPI gives them: the plain text, and the words it highlights listed apart (snippet_highlighted_words). */
import { headlineFragments, isCurrent, readForHeadlines, type FragmentOptions, type HeadlineText, type WordMatcher } from "@apiplat/catalogue";

/** Up to two fragments of at most 30 words around the matched words; a body without them shows its first 15 words. */
const SNIPPET: FragmentOptions = { maxWords: 30, minWords: 15, maxFragments: 2 };
const FRAGMENT_DELIMITER = " … ";
const WHITESPACE = /\s/;
const SPACE = 32;
/** The ASCII whitespace other than the space: tab, line feed, vertical tab, form feed, carriage return. */
const TAB = 9;
const CARRIAGE_RETURN = 13;

/** What a page's snippet is made of: its body (its title when the body is empty), read in its text-search configuration. */
interface SnippetSource {
  title: string;
  body: string;
  text_config: string;
}

/**
 * How much of a page its snippet is made from: the words of its first 16 KiB (16,384 UTF-16 code units; a word
 * running past them is left out). A crawled page's text may run to megabytes, and reading a page for snippets costs
 * its text's length (every word is found and stemmed, once per page held): up to 100 results a search, that bound is
 * what keeps any search's snippets to a few tens of milliseconds. Every page of the datasets is shorter (the longest
 * has 15,677), so their snippets are those of the whole text; a longer page's snippet shows its matches within the
 * bound, or its opening when none lies there.
 */
export const SNIPPET_TEXT_UNITS = 16 * 1024;

export interface Snippet {
  snippet: string;
  /** The words the snippet shows matched, each once, in order of appearance. */
  snippet_highlighted_words: string[];
}

/** A page's snippet: fragments of the body around the matched words (whitespace runs as one space), else its opening. */
export function snippetOf(page: SnippetSource, matcher: WordMatcher): Snippet {
  const read = readPage(page);
  const { text, offsets } = read;
  const { fragments, marks } = headlineFragments(read, matcher, SNIPPET);
  const highlighted: string[] = [];
  let mark = 0;
  const shown = fragments.map(({ first, last }) => {
    for (; mark < marks.length && marks[mark] <= last; mark++) {
      if (marks[mark] < first) continue;
      const word = text.slice(offsets[2 * marks[mark]], offsets[2 * marks[mark] + 1]);
      if (!highlighted.includes(word)) highlighted.push(word);
    }
    const fragment = text.slice(offsets[2 * first], offsets[2 * last + 1]);
    return hasOddWhitespace(read, first, last) ? fragment.replace(/\s+/g, " ") : fragment;
  });
  return { snippet: shown.join(FRAGMENT_DELIMITER), snippet_highlighted_words: highlighted };
}

/**
 * Whether the text from word `first` to word `last` holds whitespace other than single spaces (a tab, a line
 * break, another Unicode space, two spaces in a row): most fragments have none, and a test costs less than a replace.
 * Words hold no whitespace, so only the gaps between them are read, a character or two each: scanning every character
 * of every fragment with a pattern cost 2 % of a search.
 */
function hasOddWhitespace({ text, offsets }: HeadlineText, first: number, last: number): boolean {
  for (let word = first; word < last; word++) {
    const end = offsets[2 * word + 2];
    for (let i = offsets[2 * word + 1]; i < end; i++) {
      const code = text.charCodeAt(i);
      if (code === SPACE ? i + 1 < end && text.charCodeAt(i + 1) === SPACE : code < 128 ? code >= TAB && code <= CARRIAGE_RETURN : WHITESPACE.test(text[i])) {
        return true;
      }
    }
  }
  return false;
}

/**
 * Reads a page's words for its snippets ahead of any search that shows it (see searchCatalogue): a page read for the
 * first time by a search cost that search about a millisecond, and a search whose results were all new to the
 * snapshot waited 20 to 30 ms for them.
 */
export function readForSnippets(page: SnippetSource): void {
  readPage(page);
}

/** A page's words, read once while its snapshot's rows are held. */
function readPage(page: SnippetSource): HeadlineText {
  let read = wordsOfPages.get(page);
  if (!read || !isCurrent(read)) {
    read = readForHeadlines(page.body === "" ? page.title : page.body, page.text_config, SNIPPET_TEXT_UNITS);
    wordsOfPages.set(page, read);
  }
  return read;
}

const wordsOfPages = new WeakMap<SnippetSource, HeadlineText>();
