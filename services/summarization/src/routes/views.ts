import type { ResolvedInput } from "../app/input.js";
import type { SourceCounts } from "../app/summarize.js";
import { joinSentences } from "../domain/sentences.js";
import { round, type ScoredSentence } from "../domain/summarize.js";
import type { Style } from "../domain/styles.js";
import { countWords } from "../domain/text.js";

/** A summary as the API shows it: the text, its sentences, and the source's and summary's counts. */
export function summaryView(input: ResolvedInput, picked: ScoredSentence[], style: Style | undefined, counts: SourceCounts) {
  const summary = joinSentences(picked.map((s) => s.text));
  const summaryWords = countWords(summary, input.language);
  return {
    summary,
    sentences: picked,
    mode: "extractive" as const,
    style: style ?? null,
    language: input.language,
    language_detected: input.detected,
    source: input.source,
    counts: {
      source_words: counts.words,
      source_sentences: counts.sentences,
      source_tokens: counts.tokens,
      summary_words: summaryWords,
      summary_sentences: picked.length,
    },
    compression: counts.words > 0 ? round(summaryWords / counts.words, 4) : 0,
  };
}
