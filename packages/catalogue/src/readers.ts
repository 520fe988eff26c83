/**
 * Streaming readers: each yields one record at a time with its position in the file, so memory stays flat however
 * large the file is. A record the reader cannot even parse (a broken JSON line) is yielded as a `MalformedRecord`
 * so that ingestion reports and skips it instead of stopping.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { parse } from "csv-parse";

export interface ReadRecord<T> {
  /** 1-based line (JSON Lines) or record number (CSV, header excluded) in the file. */
  line: number;
  value: T;
}

export interface MalformedRecord {
  line: number;
  malformed: string;
}

export type ReaderItem<T> = ReadRecord<T> | MalformedRecord;

export function isMalformed<T>(item: ReaderItem<T>): item is MalformedRecord {
  return "malformed" in item;
}

export interface CsvOptions {
  /** Column separator (default ","). */
  delimiter?: string;
  /** Stop after this many records (tests and benchmarks ingest a bounded subset). */
  limit?: number;
}

/** A CSV file with a header row, as objects keyed by the header's names. */
export async function* readCsv(path: string, options: CsvOptions = {}): AsyncGenerator<ReaderItem<Record<string, string>>> {
  const file = createReadStream(path);
  const parser = file.pipe(
    parse({
      columns: true,
      delimiter: options.delimiter ?? ",",
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      info: true,
    }),
  );
  // pipe() does not forward the file's errors (a missing file): hand them to the parser, which the loop reads.
  file.on("error", (error) => parser.destroy(error));
  let count = 0;
  // csv-parse counts records of the wrong length cumulatively: a rise marks this record.
  let invalidSoFar = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { records: number; invalid_field_length: number } }>) {
      count += 1;
      const wrongLength = info.invalid_field_length > invalidSoFar;
      invalidSoFar = info.invalid_field_length;
      if (wrongLength || Object.keys(record).length === 0) {
        yield { line: info.records, malformed: "the record has a different number of fields than the header" };
      } else {
        yield { line: info.records, value: record };
      }
      if (options.limit !== undefined && count >= options.limit) break;
    }
  } finally {
    parser.destroy();
    file.destroy();
  }
}

/** A JSON Lines file: one JSON value per line; blank lines are skipped, a line that is not JSON is malformed. */
export async function* readJsonLines<T = unknown>(path: string, options: { limit?: number } = {}): AsyncGenerator<ReaderItem<T>> {
  const stream = createReadStream(path, { encoding: "utf8" });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let line = 0;
  let count = 0;
  try {
    for await (const text of lines) {
      line += 1;
      if (text.trim() === "") continue;
      count += 1;
      try {
        yield { line, value: JSON.parse(text) as T };
      } catch {
        yield { line, malformed: "the line is not valid JSON" };
      }
      if (options.limit !== undefined && count >= options.limit) break;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}

/**
 * The elements of one top-level array inside a JSON document (`{"images": [...]}` -> each image), read as a stream:
 * the scanner keeps only the element being read in memory. Elements must be objects or arrays.
 */
export async function* readJsonArray<T = unknown>(path: string, key: string, options: { limit?: number } = {}): AsyncGenerator<ReaderItem<T>> {
  const stream = createReadStream(path, { encoding: "utf8", highWaterMark: 64 * 1024 });
  const scanner = new JsonArrayScanner(key);
  let count = 0;
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      for (const element of scanner.push(chunk)) {
        count += 1;
        try {
          yield { line: count, value: JSON.parse(element) as T };
        } catch {
          yield { line: count, malformed: "the element is not valid JSON" };
        }
        if (options.limit !== undefined && count >= options.limit) return;
      }
      if (scanner.finished) return;
    }
  } finally {
    stream.destroy();
  }
}

/** Finds `"key": [` at depth 1 of the document, then cuts each element of that array out of the stream. */
class JsonArrayScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private lastString = "";
  private stringBuffer = "";
  private state: "seeking" | "inArray" | "done" = "seeking";
  private element = "";
  private elementDepth = 0;
  private pendingKey = false;
  constructor(private readonly key: string) {}

  get finished(): boolean {
    return this.state === "done";
  }

  *push(chunk: string): Generator<string> {
    let elementStart = this.elementDepth > 0 ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (this.inString) {
        if (this.state === "seeking") this.stringBuffer += c;
        if (this.escaped) this.escaped = false;
        else if (c === "\\") this.escaped = true;
        else if (c === '"') {
          this.inString = false;
          if (this.state === "seeking") {
            this.lastString = this.stringBuffer.slice(0, -1);
            this.stringBuffer = "";
          }
        }
        continue;
      }
      if (c === '"') {
        this.inString = true;
        this.stringBuffer = "";
        continue;
      }
      if (this.state === "seeking") {
        if (c === ":" && this.depth === 1) this.pendingKey = this.lastString === this.key;
        else if (c === "{" || c === "[") {
          this.depth += 1;
          if (c === "[" && this.pendingKey && this.depth === 2) {
            this.state = "inArray";
            this.elementDepth = 0;
          }
          this.pendingKey = false;
        } else if (c === "}" || c === "]") this.depth -= 1;
        else if (c === ",") this.pendingKey = false;
        continue;
      }
      if (this.state === "inArray") {
        if (c === "{" || c === "[") {
          if (this.elementDepth === 0) elementStart = i;
          this.elementDepth += 1;
        } else if (c === "}" || c === "]") {
          if (this.elementDepth === 0) {
            this.state = "done";
            return;
          }
          this.elementDepth -= 1;
          if (this.elementDepth === 0) {
            yield this.element + chunk.slice(elementStart, i + 1);
            this.element = "";
            elementStart = -1;
          }
        }
      }
    }
    if (this.state === "inArray" && this.elementDepth > 0 && elementStart >= 0) this.element += chunk.slice(elementStart);
  }
}
