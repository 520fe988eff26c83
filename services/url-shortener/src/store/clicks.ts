import type { Queryable } from "@apiplat/storage";

/** Clicks keyed into rollup rows between two calls of `pause`. */
const ROLLUP_SLICE = 500;

export interface ClickRecord {
  linkId: number;
  /** Epoch milliseconds. */
  at: number;
  /** The UTC day of `at` (YYYY-MM-DD), computed once per click. */
  day: string;
  referrerDomain: string | null;
  country: string | null;
  deviceType: string;
  browser: string | null;
  os: string | null;
  isBot: boolean;
  visitorHash: string;
  /** Already added to the link's counter at redirect time. */
  counted: boolean;
}

/** Records that the drained batch `id` is being written (in its transaction): false when it was written before. */
export async function claimClickBatch(tx: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await tx.query("INSERT INTO shortener_click_drains (id) VALUES ($1) ON CONFLICT DO NOTHING", [id]);
  return rowCount === 1;
}

/** Forgets drained batch ids older than `days`: a batch is retried within seconds, never days, after it was taken. */
export async function forgetClickBatches(db: Queryable, days: number): Promise<void> {
  await db.query("DELETE FROM shortener_click_drains WHERE drained_at < now() - make_interval(days => $1)", [days]);
}

/**
 * Writes a batch of clicks, their daily aggregates and the not-yet-counted ones to their links' counters (call it in
 * one transaction). Returns the visitor-day keys stored, for the caller to remember once the transaction commits.
 */
export async function writeClicks(
  tx: Queryable,
  clicks: readonly ClickRecord[],
  knownVisitorDay: (key: string) => boolean = () => false,
  /** Awaited between slices of a large batch (the caller lets other work run there). */
  pause: () => Promise<void> = async () => {},
): Promise<string[]> {
  await tx.query(
    `INSERT INTO shortener_clicks (link_id, clicked_at, referrer_domain, country, device_type, browser, os, is_bot, visitor_hash)
     SELECT c.l, to_timestamp(c.t / 1000.0), c.r, c.c, c.d, c.b, c.o, c.bot, c.v
     FROM json_to_recordset($1::json) AS c(l bigint, t bigint, r text, c text, d text, b text, o text, bot boolean, v text)`,
    [
      asJsonRows(clicks, (c) => ({
        l: c.linkId,
        t: c.at,
        r: c.referrerDomain,
        c: c.country,
        d: c.deviceType,
        b: c.browser,
        o: c.os,
        bot: c.isBot,
        v: c.visitorHash,
      })),
    ],
  );
  const visitorDays = await updateRollups(tx, clicks, knownVisitorDay, pause);
  const perLink = new Map<number, { count: number; last: number }>();
  for (const click of clicks) {
    if (click.counted) continue;
    const entry = perLink.get(click.linkId) ?? { count: 0, last: 0 };
    entry.count++;
    entry.last = Math.max(entry.last, click.at);
    perLink.set(click.linkId, entry);
  }
  if (perLink.size === 0) return visitorDays;
  const counters = [...perLink].sort(([a], [b]) => a - b);
  await tx.query(
    `UPDATE shortener_links AS l SET clicks = l.clicks + v.n, last_clicked_at = greatest(l.last_clicked_at, to_timestamp(v.at / 1000.0))
     FROM json_to_recordset($1::json) AS v(id bigint, n bigint, at bigint)
     WHERE l.id = v.id`,
    [asJsonRows(counters, ([id, { count, last }]) => ({ id, n: count, at: last }))],
  );
  return visitorDays;
}

/**
 * Rows sent as one JSON parameter (read with json_to_recordset): V8 serializes a batch in one native call, where
 * node-pg turns each array parameter into a literal element by element in JavaScript, one synchronous block per
 * statement that held redirects up. Short keys keep the text small; the column list in the SQL names them.
 */
function asJsonRows<T>(items: readonly T[], row: (item: T) => Record<string, unknown>): string {
  return JSON.stringify(items.map(row));
}

export type Dimension = "day" | "referrer" | "country" | "device_type" | "browser" | "os";

export interface DimensionRow {
  dimension: Dimension;
  value: string;
  hits: number;
  visitors: number;
}

const DIMENSION_COLUMNS: Dimension[] = ["day", "referrer", "country", "device_type", "browser", "os"];

/** Human hits and visitors of a link between two UTC days (both included), summed per value of each dimension. */
export async function dimensionTotals(db: Queryable, linkId: number, fromDay: string, toDay: string): Promise<DimensionRow[]> {
  const result = await db.query<Record<Dimension, string | null> & { hits: number; visitors: number }>(
    `SELECT day::text AS day, referrer, country, device_type, browser, os, sum(hits)::bigint AS hits, sum(visitors)::bigint AS visitors
     FROM shortener_click_daily
     WHERE link_id = $1 AND day >= $2::date AND day <= $3::date AND NOT is_bot
     GROUP BY GROUPING SETS ((day), (referrer), (country), (device_type), (browser), (os))`,
    [linkId, fromDay, toDay],
  );
  return result.rows.map((row) => {
    const dimension = DIMENSION_COLUMNS.find((column) => row[column] !== null)!;
    return { dimension, value: row[dimension]!, hits: Number(row.hits), visitors: Number(row.visitors) };
  });
}

/** Bot hits of a link between two UTC days, or over its whole life when no days are given. */
export async function botHits(db: Queryable, linkId: number, fromDay: string | null, toDay: string | null): Promise<number> {
  const result = await db.query<{ hits: number | null }>(
    `SELECT sum(hits)::bigint AS hits FROM shortener_click_daily
     WHERE link_id = $1 AND is_bot AND ($2::date IS NULL OR day >= $2::date) AND ($3::date IS NULL OR day <= $3::date)`,
    [linkId, fromDay, toDay],
  );
  return Number(result.rows[0]?.hits ?? 0);
}

/** All-time totals of a link from its daily aggregates. */
export async function lifetimeTotals(db: Queryable, linkId: number): Promise<{ hits: number; visitors: number; bot_hits: number }> {
  const result = await db.query<{ hits: number | null; visitors: number | null; bot_hits: number | null }>(
    `SELECT sum(hits) FILTER (WHERE NOT is_bot)::bigint AS hits,
            sum(visitors) FILTER (WHERE NOT is_bot)::bigint AS visitors,
            sum(hits) FILTER (WHERE is_bot)::bigint AS bot_hits
     FROM shortener_click_daily WHERE link_id = $1`,
    [linkId],
  );
  const row = result.rows[0];
  return { hits: Number(row?.hits ?? 0), visitors: Number(row?.visitors ?? 0), bot_hits: Number(row?.bot_hits ?? 0) };
}

/** The key of a visitor's day on a link, as shortener_daily_visitors holds it. */
function visitorDayKey(click: ClickRecord): string {
  return `${click.linkId}|${click.day}|${click.visitorHash}`;
}

/** A click's row in the daily aggregates, keyed by the values combinationOf gives (without building them). */
function rollupKey(click: ClickRecord): string {
  if (click.isBot) return `${click.linkId}|${click.day}|bot`;
  const { referrerDomain, country, deviceType, browser, os } = click;
  return `${click.linkId}|${click.day}|${referrerDomain ?? "direct"}|${country ?? "unknown"}|${deviceType}|${browser ?? "unknown"}|${os ?? "unknown"}`;
}

function combinationOf(click: ClickRecord): string[] {
  if (click.isBot) return ["", "", "", "", ""];
  return [click.referrerDomain ?? "direct", click.country ?? "unknown", click.deviceType, click.browser ?? "unknown", click.os ?? "unknown"];
}

/**
 * Adds a batch to the daily aggregates: each click adds a hit to its combination of values; a visitor's first click of
 * the day (a new row in shortener_daily_visitors) also adds a visitor. `known` says which visitor days are already
 * stored, so that they are not sent again. Returns the visitor-day keys that are stored once this transaction commits.
 */
async function updateRollups(tx: Queryable, clicks: readonly ClickRecord[], known: (key: string) => boolean, pause: () => Promise<void>): Promise<string[]> {
  const firstClickOf = new Map<string, ClickRecord>();
  for (const click of clicks) {
    if (click.isBot) continue;
    const key = visitorDayKey(click);
    if (!firstClickOf.has(key) && !known(key)) firstClickOf.set(key, click);
  }
  // A fixed order keeps concurrent flushes of several processes from deadlocking on the same rows.
  const candidates = [...firstClickOf.keys()].sort();
  const newVisitors = new Set<ClickRecord>();
  if (candidates.length > 0) {
    const firstClicks = candidates.map((key) => firstClickOf.get(key)!);
    const inserted = await tx.query<{ link_id: number; day: string; visitor_hash: string }>(
      `INSERT INTO shortener_daily_visitors (link_id, day, visitor_hash)
       SELECT * FROM json_to_recordset($1::json) AS v(l bigint, d date, v text)
       ON CONFLICT DO NOTHING
       RETURNING link_id, day::text AS day, visitor_hash`,
      [asJsonRows(firstClicks, (c) => ({ l: c.linkId, d: c.day, v: c.visitorHash }))],
    );
    for (const row of inserted.rows) newVisitors.add(firstClickOf.get(`${row.link_id}|${row.day}|${row.visitor_hash}`)!);
  }
  const rows = new Map<string, { linkId: number; day: string; isBot: boolean; values: string[]; hits: number; visitors: number }>();
  let counted = 0;
  for (const click of clicks) {
    if (++counted % ROLLUP_SLICE === 0) await pause();
    const key = rollupKey(click);
    let row = rows.get(key);
    if (!row) {
      row = { linkId: click.linkId, day: click.day, isBot: click.isBot, values: combinationOf(click), hits: 0, visitors: 0 };
      rows.set(key, row);
    }
    row.hits++;
    if (newVisitors.has(click)) row.visitors++;
  }
  const ordered = [...rows.keys()].sort().map((key) => rows.get(key)!);
  await tx.query(
    `INSERT INTO shortener_click_daily (link_id, day, is_bot, referrer, country, device_type, browser, os, hits, visitors)
     SELECT * FROM json_to_recordset($1::json) AS r(l bigint, d date, bot boolean, r text, c text, dt text, b text, o text, h bigint, v bigint)
     ON CONFLICT (link_id, day, is_bot, referrer, country, device_type, browser, os)
     DO UPDATE SET hits = shortener_click_daily.hits + excluded.hits, visitors = shortener_click_daily.visitors + excluded.visitors`,
    [
      asJsonRows(ordered, (r) => ({
        l: r.linkId,
        d: r.day,
        bot: r.isBot,
        r: r.values[0],
        c: r.values[1],
        dt: r.values[2],
        b: r.values[3],
        o: r.values[4],
        h: r.hits,
        v: r.visitors,
      })),
    ],
  );
  return candidates;
}
