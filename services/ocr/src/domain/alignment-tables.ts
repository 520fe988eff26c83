import { makeBox, type PageSize } from "./geometry.js";
import type { Table, TableCell, TableWord } from "./table-types.js";

/**
 * Table detection from alignment, for tables drawn without ruling lines.
 *
 * 1. Words are grouped into visual rows: a word joins the row whose vertical band holds its centre.
 * 2. A row whose words leave a horizontal gap wider than 1.2 x the median word height somewhere (wider than any
 *    space between words) may be a table row.
 * 3. Consecutive such rows, no further apart than 2.5 row heights, form a candidate. Its columns are the
 *    x-intervals covered by words of any of its rows; the empty vertical strips between them ("gutters") that run
 *    through every row separate the columns.
 * 4. A candidate is a table when it has at least 3 rows and 2 columns and its cells are short (at most 4 words on
 *    average): two columns of running text also have a gutter, but their "cells" are long lines.
 */

interface Row {
  words: TableWord[];
  top: number;
  bottom: number;
}

const MIN_ROWS = 3;
const MIN_COLUMNS = 2;
const MAX_MEAN_WORDS_PER_CELL = 4;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)];
};

function groupRows(words: TableWord[]): Row[] {
  const rows: Row[] = [];
  for (const word of [...words].sort((a, b) => (a.top + a.bottom) / 2 - (b.top + b.bottom) / 2)) {
    const centre = (word.top + word.bottom) / 2;
    const row = rows.find((r) => centre >= r.top && centre <= r.bottom);
    if (row) {
      row.words.push(word);
      row.top = Math.min(row.top, word.top);
      row.bottom = Math.max(row.bottom, word.bottom);
    } else {
      rows.push({ words: [word], top: word.top, bottom: word.bottom });
    }
  }
  for (const row of rows) row.words.sort((a, b) => a.left - b.left);
  return rows.sort((a, b) => a.top - b.top);
}

function hasWideGap(row: Row, minGap: number): boolean {
  return row.words.some((word, i) => i > 0 && word.left - row.words[i - 1].right >= minGap);
}

/** The x-intervals covered by words of these rows, merged where closer than `minGap`. */
function columnSpans(rows: Row[], minGap: number): Array<[number, number]> {
  const spans = rows.flatMap((row) => row.words.map((word): [number, number] => [word.left, word.right])).sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [left, right] of spans) {
    const last = merged[merged.length - 1];
    if (last && left - last[1] < minGap) last[1] = Math.max(last[1], right);
    else merged.push([left, right]);
  }
  return merged;
}

function toTable(rows: Row[], columns: Array<[number, number]>, page: PageSize, readingOrder: Map<TableWord, number>): Table | null {
  let cellCount = 0;
  let wordCount = 0;
  const tableRows = rows.map((row, r) => {
    const cells: TableCell[] = columns.map(([left, right], c) => {
      const inside = row.words
        .filter((word) => (word.left + word.right) / 2 >= left && (word.left + word.right) / 2 <= right)
        .sort((a, b) => readingOrder.get(a)! - readingOrder.get(b)!);
      if (inside.length > 0) {
        cellCount++;
        wordCount += inside.length;
      }
      return {
        row_index: r,
        column_index: c,
        column_span: 1,
        text: inside.map((word) => word.text).join(" "),
        confidence: inside.length === 0 ? null : Math.round((inside.reduce((sum, w) => sum + w.confidence, 0) / inside.length) * 1000) / 1000,
        box: makeBox(left, row.top, right, row.bottom, page),
      };
    });
    return { row_index: r, cells };
  });
  if (cellCount === 0 || wordCount / cellCount > MAX_MEAN_WORDS_PER_CELL) return null;
  return {
    detection: "alignment",
    row_count: rows.length,
    column_count: columns.length,
    box: makeBox(columns[0][0], rows[0].top, columns[columns.length - 1][1], rows[rows.length - 1].bottom, page),
    rows: tableRows,
  };
}

export function detectAlignedTables(words: TableWord[], page: PageSize): Table[] {
  if (words.length === 0) return [];
  const readingOrder = new Map(words.map((word, i) => [word, i]));
  const wordHeight = median(words.map((word) => word.bottom - word.top));
  const minGap = Math.max(8, 1.2 * wordHeight);
  const rows = groupRows(words);
  const tables: Table[] = [];
  let run: Row[] = [];
  const flush = () => {
    if (run.length >= MIN_ROWS) {
      const columns = columnSpans(run, minGap);
      if (columns.length >= MIN_COLUMNS) {
        const table = toTable(run, columns, page, readingOrder);
        if (table) tables.push(table);
      }
    }
    run = [];
  };
  for (const row of rows) {
    const previous = run[run.length - 1];
    const near = previous !== undefined && row.top - previous.bottom <= 2.5 * wordHeight;
    if (!hasWideGap(row, minGap)) {
      flush();
      continue;
    }
    if (previous && (!near || columnSpans([...run, row], minGap).length < MIN_COLUMNS)) flush();
    run.push(row);
  }
  flush();
  return tables;
}
