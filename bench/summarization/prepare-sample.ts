/**
 * Writes an evaluation sample (JSON Lines of {id, split, genre, article, references}, see sample.ts) to stdout from a
 * public source fetched beforehand. docs/performance/summarization.md gives the repositories, commits and files.
 *
 *   tsx bench/summarization/prepare-sample.ts frank <articles-wbertscore-json dir> <validation_split.txt> [--test-urls all_test.txt]
 *     CNN/DailyMail test-split articles of the FRANK benchmark (artidoro/frank): the article as published in the
 *     dataset, the highlights as FRANK gives them (PTB-tokenized, cased: see cnnDailyMailHighlights). FRANK's own
 *     validation/test partition of its documents becomes our development/report split. With --test-urls (abisee's
 *     url_lists/all_test.txt), every article's id is checked to be the SHA-1 of a test-split URL.
 *   tsx bench/summarization/prepare-sample.ts fewsum <gold_summs/{train,val,test}.csv>...
 *     Amazon and Yelp opinion summaries of FewSum (abrazinskas/FewSum): 8 reviews of a product or business, 3 human
 *     summaries each. train and val become "validation" (nothing here is trained), test stays "test".
 *   tsx bench/summarization/prepare-sample.ts scitldr <SciTLDR-A/{dev,test}.jsonl>...
 *     Paper abstracts and their TLDRs (allenai/scitldr, SciTLDR-A): the author's TLDR and the peer reviewers' ones.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { option, positional, type SampleItem } from "./sample.js";

const [source, ...paths] = positional();

function write(items: SampleItem[]): void {
  for (const item of items) process.stdout.write(`${JSON.stringify(item)}\n`);
  const splits = [...new Set(items.map((i) => i.split))].map((s) => `${items.filter((i) => i.split === s).length} ${s}`);
  console.error(`${items.length} items: ${splits.join(", ")}`);
}

/** Sentences as ICU finds them, one a line. */
function sentenceLines(text: string): string {
  const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });
  return [...segmenter.segment(text.trim())]
    .map((s) => s.segment.trim())
    .filter(Boolean)
    .join("\n");
}

/**
 * FRANK gives each article's highlights PTB-tokenized ("Locke 's first six games", "-LRB- 3.7 miles -RRB-"), each
 * highlight ended by " .". For rouge-score's tokenizer, which drops punctuation, the tokenization changes nothing
 * but brackets (spelled -LRB-) and split negations ("does n't" would count "does", "n", "t"); those two are put
 * back as written, and each highlight goes on its own line.
 */
export function cnnDailyMailHighlights(tokenized: string): string {
  const brackets: Record<string, string> = { "-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}" };
  return tokenized
    .replace(/-[LR][RSC]B-/g, (token) => brackets[token] ?? token)
    .replace(/(\S) n't\b/g, "$1n't")
    .split(/(?<= [.!?]) (?=\S)/)
    .map((line) => line.trim())
    .filter(Boolean)
    .join("\n");
}

interface FrankRecord {
  hash: string;
  url: string;
  article: string;
  bart_reference: string;
}

function frank(dir: string, validationSplit: string): SampleItem[] {
  const validation = new Set(readFileSync(validationSplit, "utf8").split(/\s+/).filter(Boolean));
  const testUrls = option("test-urls");
  const testIds = testUrls
    ? new Set(
        readFileSync(testUrls, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((url) => createHash("sha1").update(url.trim()).digest("hex")),
      )
    : undefined;
  return readdirSync(dir)
    .filter((name) => /^[0-9a-f]{40}\.json$/.test(name)) // CNN/DailyMail stories (XSum's BBC ids are numbers)
    .sort()
    .map((name) => {
      const record = JSON.parse(readFileSync(join(dir, name), "utf8")) as FrankRecord;
      const sha1 = createHash("sha1").update(record.url).digest("hex");
      if (sha1 !== record.hash) throw new Error(`${name}: the id is not the SHA-1 of its URL`);
      if (testIds && !testIds.has(record.hash)) throw new Error(`${name}: not in the CNN/DailyMail test split`);
      return {
        id: record.hash,
        split: validation.has(record.hash) ? "validation" : "test",
        genre: "news",
        article: record.article,
        references: [cnnDailyMailHighlights(record.bart_reference)],
      };
    });
}

/** FewSum's gold summaries: tab-separated, a header, then cat, group_id, 8 reviews, 3 summaries (Amazon adds 8 ratings). */
function fewsum(files: string[]): SampleItem[] {
  return files.flatMap((file) => {
    const [header, ...rows] = readFileSync(file, "utf8").split("\n").filter(Boolean);
    const columns = header!.split("\t");
    const split = basename(file).startsWith("test") ? "test" : "validation";
    return rows.map((row) => {
      const cells = row.split("\t");
      if (cells.length !== columns.length) throw new Error(`${file}: a row of ${cells.length} cells under ${columns.length} columns`);
      const field = (name: string) => cells[columns.indexOf(name)]!.trim();
      const reviews = Array.from({ length: 8 }, (_, i) => field(`rev${i + 1}`));
      return {
        id: field("group_id"),
        split,
        genre: "reviews",
        article: reviews.join("\n\n"),
        references: [1, 2, 3].map((i) => sentenceLines(field(`summ${i}`))),
      };
    });
  });
}

function scitldr(files: string[]): SampleItem[] {
  return files.flatMap((file) => {
    const split = basename(file).startsWith("test") ? "test" : "validation";
    return readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const record = JSON.parse(line) as { paper_id: string; source: string[]; target: string[] };
        return {
          id: record.paper_id,
          split,
          genre: "scientific",
          article: record.source.map((s) => s.trim()).join(" "),
          references: record.target.map(sentenceLines),
        };
      });
  });
}

switch (source) {
  case "frank":
    write(frank(paths[0]!, paths[1]!));
    break;
  case "fewsum":
    write(fewsum(paths));
    break;
  case "scitldr":
    write(scitldr(paths));
    break;
  default:
    console.error("usage: prepare-sample.ts frank|fewsum|scitldr <files...> (see the comment at the top)");
    process.exit(2);
}
