/**
 * The ROUGE sample: CNN/DailyMail articles with their highlights, one JSON object a line (`id`, `article`,
 * `highlights`). It is third-party text, so this repository does not keep it: point SUMMARIZATION_SAMPLE at the file
 * (docs/performance/summarization.md says which sample the recorded figures used and how it was made).
 */
import { readFileSync } from "node:fs";

export interface Article {
  id: string;
  article: string;
  highlights: string;
}

export function readSample(): Article[] {
  const file = process.env.SUMMARIZATION_SAMPLE;
  if (!file) {
    console.error("Set SUMMARIZATION_SAMPLE to a JSON Lines file of {id, article, highlights} (see docs/performance/summarization.md).");
    process.exit(2);
  }
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Article);
}
