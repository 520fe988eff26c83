import type { LanguageTools } from "./languages.js";
import { icuSentences, paragraphs } from "./sentences.js";
import { analyze, selectSentences, summaryLength, type AnalyzedSentence, type ScoredSentence } from "./summarize.js";
import type { Style } from "./styles.js";
import { countTokens } from "./text.js";

/** Tokens per chunk: well under the 4,096-token limit so each chunk is a comfortable single summary. */
export const CHUNK_TOKENS = 2_000;
/** Sentences kept from each chunk for the final pass. */
const SENTENCES_PER_CHUNK = 3;

/**
 * Paragraphs packed in order into chunks of at most CHUNK_TOKENS tokens. A paragraph bigger than a chunk is cut
 * between its sentences; a single sentence bigger than a chunk is a chunk of its own.
 */
export function chunkText(text: string, tools: LanguageTools): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let currentTokens = 0;
  const flush = () => {
    if (current.length > 0) chunks.push(current.join("\n\n"));
    current = [];
    currentTokens = 0;
  };
  const add = (piece: string, tokens: number) => {
    if (currentTokens + tokens > CHUNK_TOKENS) flush();
    current.push(piece);
    currentTokens += tokens;
  };
  for (const paragraph of paragraphs(text)) {
    const tokens = countTokens(paragraph, tools.language);
    if (tokens <= CHUNK_TOKENS) {
      add(paragraph, tokens);
      continue;
    }
    let run: string[] = [];
    let runTokens = 0;
    for (const segment of icuSentences(paragraph, tools.language)) {
      const sentenceTokens = countTokens(segment, tools.language);
      if (runTokens + sentenceTokens > CHUNK_TOKENS && run.length > 0) {
        add(run.join("").trim(), runTokens);
        run = [];
        runTokens = 0;
      }
      run.push(segment);
      runTokens += sentenceTokens;
    }
    if (run.length > 0) add(run.join("").trim(), runTokens);
  }
  flush();
  return chunks;
}

interface ChunkSummary {
  index: number;
  words: number;
  sentences: ScoredSentence[];
}

export interface LongSummary {
  chunks: ChunkSummary[];
  /** The final pass over the chunks' sentences; `index` is the sentence's position in the whole source. */
  sentences: ScoredSentence[];
  sourceSentences: number;
  sourceWords: number;
}

/**
 * Map-reduce: each chunk is summarized to SENTENCES_PER_CHUNK sentences, then the chunk summaries, in order, are
 * summarized again with the caller's bounds. The position prior of the final pass is the chunk's, so earlier chunks
 * are not favoured over later ones beyond what their content earns.
 */
export function summarizeLong(text: string, tools: LanguageTools, bounds: { min: number; max: number; style?: Style }): LongSummary {
  let offset = 0;
  let sourceWords = 0;
  const pooled: AnalyzedSentence[] = [];
  const chunks = chunkText(text, tools).map((chunk, index) => {
    const sentences = analyze(chunk, tools);
    const words = sentences.reduce((sum, s) => sum + s.words, 0);
    const picked = selectSentences(sentences, tools, { count: SENTENCES_PER_CHUNK }).map((s) => ({ ...s, index: s.index + offset }));
    for (const s of picked) pooled.push({ ...sentences[s.index - offset]!, index: s.index });
    offset += sentences.length;
    sourceWords += words;
    return { index, words, sentences: picked };
  });
  const count = summaryLength({ sentences: offset, words: sourceWords, news: false }, bounds.min, bounds.max);
  const final = selectSentences(pooled, tools, { count, style: bounds.style, positionWeight: 0 });
  return { chunks, sentences: final, sourceSentences: offset, sourceWords };
}
