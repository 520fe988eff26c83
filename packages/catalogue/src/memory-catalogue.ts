/**
 * A catalogue's searchable rows held in the service's memory, with a TextIndex over their tsvectors: full-text
 * searches are matched, ranked, filtered, counted and paged here instead of in the database. At 20 callers on one
 * core, a search that asks the database waits behind everyone else's queries (p99 49 to 475 ms); here it costs a
 * fraction of a millisecond of the service's own time.
 *
 * The database still answers the parts it does best and cheaply: typo correction of a word the vocabulary does not
 * know, and turning the query into a tsquery (its parser, stemmer and stop words), together with the catalogue's
 * version in the same round trip. The version changes with every ingestion run that changed the catalogue
 * (`ingest_runs`), and the rows are read again when it has: a search never sees an older catalogue than the last
 * finished run.
 */
import type { Queryable } from "@apiplat/storage";
import { correctedQuery, prepareTextQuery, splitTextQuery, type TextQuery } from "./search.js";
import { SqlFilter } from "./sql.js";
import { TextIndex } from "./text-index.js";
import { Vocabulary } from "./vocabulary.js";

export interface CatalogueSnapshot<Row> {
  version: string;
  rows: Row[];
  /** One index per tsvector column the rows were read with (`rows[i]` is document i of each). */
  indexes: Record<string, TextIndex>;
  /** The words typo correction knows (`search_vocabulary`). */
  vocabulary: Vocabulary;
}

export interface SnapshotRows<Row> {
  rows: Row[];
  /** Each tsvector column as text, aligned with `rows`. */
  vectors: Record<string, (string | null)[]>;
}

export interface MemoryCatalogue<Row> {
  /** The query with its misspelt words corrected, from the vocabulary in memory (a word beyond ASCII: asked of the database). */
  prepare(q: string): Promise<TextQuery>;
  /**
   * The tsqueries `build` writes (SQL expressions, their values added to the filter), as PostgreSQL's text, and the
   * current snapshot: one round trip, the snapshot read again first when an ingestion ran since.
   */
  compile<Name extends string>(
    build: (filter: SqlFilter) => Record<Name, string>,
  ): Promise<{ snapshot: CatalogueSnapshot<Row>; tsqueries: Record<Name, string> }>;
  /** The current snapshot, for a search without text: one round trip for the version. */
  current(): Promise<CatalogueSnapshot<Row>>;
  /** The vocabulary of the snapshot read last, without a round trip; null before the first is read. */
  vocabulary(): Vocabulary | null;
}

/**
 * The catalogue's version: how many runs changed it, and the last one's finish. A run counts once it has finished
 * having written rows (or failed part-way, or ended with a finish deriving from earlier runs): a live round that found
 * nothing new leaves the version, and so every replica's snapshot and answer cache, as they are.
 */
export const VERSION_SQL = "(SELECT count(*)::text || '/' || coalesce(max(finished_at)::text, '') FROM ingest_runs WHERE changed_catalogue)";

export function memoryCatalogue<Row>(db: Queryable, load: (db: Queryable) => Promise<SnapshotRows<Row>>): MemoryCatalogue<Row> {
  let current: { version: string; snapshot: Promise<CatalogueSnapshot<Row>> } | null = null;
  let vocabulary: Vocabulary | null = null;
  const compiler = new BatchedCompiler(db);

  const snapshotAt = (version: string): Promise<CatalogueSnapshot<Row>> => {
    // A search whose version was read just before a run finished must not send the catalogue back to it.
    if (current && (current.version === version || isOlder(version, current.version))) return current.snapshot;
    const reading = { version, snapshot: readSnapshot(db, load, version) };
    current = reading;
    reading.snapshot.then(
      (snapshot) => (vocabulary = snapshot.vocabulary),
      () => {
        if (current === reading) current = null; // read again by the next search
      },
    );
    return reading.snapshot;
  };

  return {
    async prepare(q) {
      const parts = splitTextQuery(q);
      const known = vocabulary;
      const unknown = known ? parts.words.filter((word) => !known.has(word)) : parts.words;
      if (unknown.length === 0) return { text: parts.rest, corrected: null, prefixes: parts.prefixes };
      if (!known || !unknown.every((word) => known.canCorrect(word))) return prepareTextQuery(db, q);
      return correctedQuery(
        parts,
        unknown.map((word) => ({ word, suggestion: known.closest(word) })),
      );
    },
    async compile(build) {
      const { version, tsqueries } = await compiler.compile(build);
      return { snapshot: await snapshotAt(version), tsqueries };
    },
    async current() {
      return (await this.compile(() => ({}))).snapshot;
    },
    vocabulary: () => vocabulary,
  };
}

type Build = (filter: SqlFilter) => Record<string, string>;

/** Compiled searches kept (a few MB at most). */
const COMPILED_KEPT = 10_000;

interface Compilation {
  build: Build;
  resolve(result: { version: string; tsqueries: Record<string, string> }): void;
  reject(error: unknown): void;
}

/**
 * Compiles the searches that arrive together in one round trip: while a batch is with the database, the next ones
 * wait and leave together when it returns. A lone search goes at once; under load, twenty searches cost one query
 * instead of twenty (the socket writes were half of a search's time). One SqlFilter numbers every search's parameters, and each search's columns are its own.
 */
class BatchedCompiler {
  private waiting: Compilation[] = [];
  private sending = false;

  constructor(
    private readonly db: Queryable,
    private readonly largestBatch = 100,
  ) {}

  /**
   * A search's tsqueries as compiled before, by their SQL and values (PostgreSQL's parser, dictionaries and stop words
   * do not change while it runs): a search asked again still reads the version, but compiles nothing. The most
   * recently used COMPILED_KEPT are kept.
   */
  private readonly compiled = new Map<string, Record<string, string>>();

  async compile<Name extends string>(build: (filter: SqlFilter) => Record<Name, string>): Promise<{ version: string; tsqueries: Record<Name, string> }> {
    const own = new SqlFilter();
    const key = JSON.stringify([build(own), own.params]);
    const known = this.compiled.get(key);
    if (known) {
      this.compiled.delete(key);
      this.compiled.set(key, known);
      const { version } = await this.enqueue(() => ({}));
      return { version, tsqueries: known as Record<Name, string> };
    }
    const result = await this.enqueue(build);
    if (this.compiled.size >= COMPILED_KEPT) this.compiled.delete(this.compiled.keys().next().value!);
    this.compiled.set(key, result.tsqueries);
    return result;
  }

  private enqueue<Name extends string>(build: (filter: SqlFilter) => Record<Name, string>): Promise<{ version: string; tsqueries: Record<Name, string> }> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ build, resolve: resolve as Compilation["resolve"], reject });
      if (!this.sending) {
        this.sending = true;
        setImmediate(() => this.sendWaiting()); // the searches parsed in this turn of the event loop leave together
      }
    });
  }

  private sendWaiting(): void {
    const batch = this.waiting.splice(0, this.largestBatch);
    if (batch.length === 0) {
      this.sending = false;
      return;
    }
    void this.send(batch).finally(() => this.sendWaiting());
  }

  private async send(batch: Compilation[]): Promise<void> {
    const filter = new SqlFilter();
    const columns: string[] = [];
    const built = batch.flatMap((compilation) => {
      try {
        const expressions = compilation.build(filter);
        const names = Object.keys(expressions);
        const first = columns.length;
        columns.push(...names.map((name, i) => `(${expressions[name]})::text AS q${first + i}`));
        return [{ compilation, names, first }];
      } catch (error) {
        compilation.reject(error);
        return [];
      }
    });
    if (built.length === 0) return;
    try {
      const { rows } = await this.db.query<Record<string, string | null>>(`SELECT ${[...columns, `${VERSION_SQL} AS version`].join(", ")}`, filter.params);
      const row = rows[0];
      for (const { compilation, names, first } of built) {
        compilation.resolve({ version: row.version!, tsqueries: Object.fromEntries(names.map((name, i) => [name, row[`q${first + i}`] ?? ""])) });
      }
    } catch (error) {
      if (built.length === 1) return built[0].compilation.reject(error);
      // One search's values failed the batch: each is sent alone, so only that one fails.
      await Promise.all(built.map(({ compilation }) => this.send([compilation])));
    }
  }
}

/** Versions are "<runs>/<last finished>": more runs, or as many finished later, is newer. */
function isOlder(version: string, than: string): boolean {
  const [runs, finished] = version.split("/");
  const [thanRuns, thanFinished] = than.split("/");
  return Number(runs) < Number(thanRuns) || (runs === thanRuns && finished < thanFinished);
}

async function readSnapshot<Row>(db: Queryable, load: (db: Queryable) => Promise<SnapshotRows<Row>>, version: string): Promise<CatalogueSnapshot<Row>> {
  const [{ rows, vectors }, words] = await Promise.all([
    load(db),
    db.query<{ term: string; documents: number }>("SELECT term, documents FROM search_vocabulary"),
  ]);
  const indexes = Object.fromEntries(Object.entries(vectors).map(([name, column]) => [name, new TextIndex(column)]));
  return { version, rows, indexes, vocabulary: new Vocabulary(words.rows) };
}

/**
 * Text in the database's order: the catalogues' databases use the C collation, the byte order of UTF-8, which is code
 * point order. JavaScript's `<` compares UTF-16 code units, which differs for characters beyond U+FFFF (surrogates)
 * against U+E000 to U+FFFF; those are moved into place here.
 */
export function byteOrder(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** Past this many, the first items in order are found by one sort of them all rather than kept in a short sorted array. */
const SORTED_PAST = 200;

/**
 * The first `count` items in `order` (a page's worth, offset included): kept in a short sorted array while it is
 * short, so a page of ten from thousands of matches costs no full sort; a full sort when the page reaches deep.
 * Sorts `items` in place in that case.
 */
export function firstInOrder<T>(items: T[], order: (a: T, b: T) => number, count: number): T[] {
  if (count > SORTED_PAST || count >= items.length / 4) return items.sort(order).slice(0, count);
  const top: T[] = [];
  for (const item of items) {
    if (top.length === count && order(item, top[count - 1]) >= 0) continue;
    let at = top.length;
    while (at > 0 && order(item, top[at - 1]) < 0) at--;
    top.splice(at, 0, item);
    if (top.length > count) top.pop();
  }
  return top;
}

/**
 * The first `count` items in `order` (as firstInOrder gives them) of items offered one at a time, each made only when
 * it enters: a broad query matches thousands of documents, and an object for each was most of what a search
 * allocated. A short sorted array while count is small; past that, every item is kept and sorted once.
 */
export class BestInOrder<T> {
  private readonly items: T[] = [];
  private readonly keepsAll: boolean;

  constructor(
    private readonly count: number,
    private readonly order: (a: T, b: T) => number,
  ) {
    this.keepsAll = count > SORTED_PAST;
  }

  /** Adds the item `probe` stands for, made by `make` only when it is among the first `count` so far. */
  offer(probe: T, make: (probe: T) => T): void {
    if (this.keepsAll) return void this.items.push(make(probe));
    if (this.items.length === this.count && this.order(probe, this.items[this.count - 1]) >= 0) return;
    const item = make(probe);
    let at = this.items.length;
    while (at > 0 && this.order(item, this.items[at - 1]) < 0) at--;
    this.items.splice(at, 0, item);
    if (this.items.length > this.count) this.items.pop();
  }

  /** The first `count` of the items offered, in order. */
  best(): T[] {
    return this.keepsAll ? this.items.sort(this.order).slice(0, this.count) : this.items;
  }
}
