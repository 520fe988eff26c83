/**
 * An evaluation sample: one JSON object a line, `{id, split, genre, article, references}`, where `references` holds
 * one or more reference summaries, each with one sentence a line (as ROUGE-Lsum reads them). The texts are
 * third-party, so the repository keeps none: prepare-sample.ts writes such a file from public sources (see
 * docs/performance/summarization.md), and the scripts read it from the path given on their command line or from
 * SUMMARIZATION_SAMPLE.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

export interface SampleItem {
  id: string;
  /** The source's own split: "test" is reported, "validation" (or "dev") is for tuning. */
  split: string;
  /** "news", "reviews", "scientific"... */
  genre: string;
  article: string;
  references: string[];
}

export interface Sample {
  path: string;
  sha256: string;
  items: SampleItem[];
}

/** The sample at `path` (or SUMMARIZATION_SAMPLE), its sha256, and its items of `split` when given. */
export function readSample(path = process.env.SUMMARIZATION_SAMPLE, split?: string): Sample {
  if (!path) {
    console.error("Give a sample file (JSON Lines of {id, split, genre, article, references}) as an argument or in SUMMARIZATION_SAMPLE;");
    console.error("bench/summarization/prepare-sample.ts makes one (see docs/performance/summarization.md).");
    process.exit(2);
  }
  const bytes = readFileSync(path);
  const items = bytes
    .toString("utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as SampleItem)
    .filter((item) => split === undefined || split === "all" || item.split === split);
  return { path, sha256: createHash("sha256").update(bytes).digest("hex"), items };
}

/** `--name value` from argv, or the fallback. */
export function option(name: string, fallback?: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

/** Positional arguments (those not part of a `--name value` pair). */
export function positional(): string[] {
  const args = process.argv.slice(2);
  return args.filter((arg, i) => !arg.startsWith("--") && !(i > 0 && args[i - 1]!.startsWith("--")));
}
