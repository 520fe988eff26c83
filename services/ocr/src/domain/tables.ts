import type { GrayImage } from "./gray-image.js";
import { detectAlignedTables } from "./alignment-tables.js";
import { makeBox, type Box } from "./geometry.js";
import type { Table, TableCell, TableWord } from "./table-types.js";

/**
 * Table detection from ruling lines (for tables drawn without lines, see alignment-tables.ts).
 *
 * 1. Binarise the page with Otsu's threshold.
 * 2. Find horizontal ruling lines: per pixel row, dark runs at least `minLineLength` long (gaps of up to 2 px
 *    bridged), stacked over consecutive rows into segments no thicker than `maxLineThickness`. Text strokes are far
 *    shorter than a table's width, so they drop out. Vertical lines the same way, per pixel column.
 * 3. Horizontal and vertical segments that cross (within a few pixels) are joined into connected groups; a group
 *    with at least two of each, where every line crosses at least two of the other kind, is a table.
 * 4. Row boundaries are the clustered y positions of its horizontal lines, column boundaries the clustered x
 *    positions of its vertical lines. Where a row lacks the vertical line between two columns, the cells merge
 *    (column_span > 1).
 * 5. OCR words are placed in the cell containing their centre and keep Tesseract's reading order inside a cell.
 */

interface Segment {
  /** Extent along the line. */
  start: number;
  end: number;
  /** Extent across the line (its thickness). */
  from: number;
  to: number;
}

const GAP_BRIDGE = 2;
const CROSS_TOLERANCE = 6;

export function otsuThreshold(data: Uint8Array): number {
  const histogram = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) histogram[data[i]]++;
  const total = data.length;
  let sumAll = 0;
  for (let v = 0; v < 256; v++) sumAll += v * histogram[v];
  let sumBackground = 0;
  let weightBackground = 0;
  let best = 128;
  let bestVariance = -1;
  for (let v = 0; v < 256; v++) {
    weightBackground += histogram[v];
    if (weightBackground === 0) continue;
    const weightForeground = total - weightBackground;
    if (weightForeground === 0) break;
    sumBackground += v * histogram[v];
    const meanBackground = sumBackground / weightBackground;
    const meanForeground = (sumAll - sumBackground) / weightForeground;
    const variance = weightBackground * weightForeground * (meanBackground - meanForeground) ** 2;
    if (variance > bestVariance) {
      bestVariance = variance;
      best = v;
    }
  }
  return Math.min(200, Math.max(60, best));
}

/**
 * Collects the long dark runs of many lines of pixels (rows, or columns) at once. Pixels arrive line by line in
 * increasing position, in any order of lines, so one row-by-row pass over the page feeds the rows and the columns
 * together: a column-by-column pass would stride through memory and cost several times more.
 */
class RunCollector {
  /** Per line: where its current run started (-1: none yet) and its last dark position. */
  private readonly runStart: Int32Array;
  private readonly lastDark: Int32Array;
  readonly runs: Array<Array<[number, number]>>;

  constructor(
    lineCount: number,
    private readonly minLength: number,
  ) {
    this.runStart = new Int32Array(lineCount).fill(-1);
    this.lastDark = new Int32Array(lineCount);
    this.runs = Array.from({ length: lineCount }, () => []);
  }

  dark(line: number, position: number): void {
    const runStart = this.runStart[line];
    // Gaps of up to GAP_BRIDGE light pixels do not break a run.
    if (runStart < 0 || position - this.lastDark[line] > GAP_BRIDGE + 1) {
      this.close(line);
      this.runStart[line] = position;
    }
    this.lastDark[line] = position;
  }

  /** Ends every line's last run; call once after the last pixel. */
  finish(): Array<Array<[number, number]>> {
    for (let line = 0; line < this.runStart.length; line++) this.close(line);
    return this.runs;
  }

  private close(line: number): void {
    const runStart = this.runStart[line];
    if (runStart >= 0 && this.lastDark[line] - runStart + 1 >= this.minLength) this.runs[line].push([runStart, this.lastDark[line]]);
  }
}

/** Stacks each line's runs onto runs of the line before at about the same extent, into segments. */
function stackRuns(runsPerLine: Array<Array<[number, number]>>, maxThickness: number): Segment[] {
  const finished: Segment[] = [];
  let open: Segment[] = [];
  for (let line = 0; line < runsPerLine.length; line++) {
    const stillOpen: Segment[] = [];
    for (const [start, end] of runsPerLine[line]) {
      const match = open.find((segment) => segment.to === line - 1 && Math.abs(segment.start - start) <= 8 && Math.abs(segment.end - end) <= 8);
      if (match) {
        match.to = line;
        match.start = Math.min(match.start, start);
        match.end = Math.max(match.end, end);
        stillOpen.push(match);
        open = open.filter((segment) => segment !== match);
      } else {
        stillOpen.push({ start, end, from: line, to: line });
      }
    }
    finished.push(...open);
    open = stillOpen;
  }
  finished.push(...open);
  return finished.filter((segment) => segment.to - segment.from + 1 <= maxThickness);
}

/** Horizontal and vertical ruling-line candidates of the page, from one pass over its pixels. */
function findLineSegments(image: GrayImage, threshold: number, minLength: number, maxThickness: number): { horizontals: Segment[]; verticals: Segment[] } {
  const { width, height, data } = image;
  const rows = new RunCollector(height, minLength);
  const columns = new RunCollector(width, minLength);
  for (let y = 0; y < height; y++) {
    const offset = y * width;
    for (let x = 0; x < width; x++) {
      if (data[offset + x] >= threshold) continue;
      rows.dark(y, x);
      columns.dark(x, y);
    }
  }
  return { horizontals: stackRuns(rows.finish(), maxThickness), verticals: stackRuns(columns.finish(), maxThickness) };
}

function crosses(horizontal: Segment, vertical: Segment): boolean {
  return (
    vertical.from - CROSS_TOLERANCE <= horizontal.end &&
    vertical.to + CROSS_TOLERANCE >= horizontal.start &&
    horizontal.from - CROSS_TOLERANCE <= vertical.end &&
    horizontal.to + CROSS_TOLERANCE >= vertical.start
  );
}

function clusterPositions(positions: number[], tolerance: number): number[] {
  const sorted = [...positions].sort((a, b) => a - b);
  const clusters: number[][] = [];
  for (const position of sorted) {
    const last = clusters[clusters.length - 1];
    if (last && position - last[last.length - 1] <= tolerance) last.push(position);
    else clusters.push([position]);
  }
  return clusters.map((cluster) => Math.round(cluster.reduce((sum, p) => sum + p, 0) / cluster.length));
}

interface LineGroup {
  horizontals: Segment[];
  verticals: Segment[];
}

function groupCrossingLines(horizontals: Segment[], verticals: Segment[]): LineGroup[] {
  const parent = Array.from({ length: horizontals.length + verticals.length }, (_, i) => i);
  // A loop, not recursion: a parent chain can be as long as the page's lines (about 9,000 vertical lines fit in
  // OCR_MAX_PIXELS), near the call stack's depth.
  const find = (i: number): number => {
    let root = i;
    while (parent[root] !== root) root = parent[root];
    while (parent[i] !== root) [parent[i], i] = [root, parent[i]];
    return root;
  };
  horizontals.forEach((horizontal, h) => {
    verticals.forEach((vertical, v) => {
      if (crosses(horizontal, vertical)) parent[find(h)] = find(horizontals.length + v);
    });
  });
  const groups = new Map<number, LineGroup>();
  const groupOf = (i: number) => {
    const root = find(i);
    if (!groups.has(root)) groups.set(root, { horizontals: [], verticals: [] });
    return groups.get(root)!;
  };
  horizontals.forEach((segment, h) => groupOf(h).horizontals.push(segment));
  verticals.forEach((segment, v) => groupOf(horizontals.length + v).verticals.push(segment));
  return [...groups.values()];
}

/** Drops lines that cross fewer than two lines of the other direction (stray strokes touching a table). */
function pruneGroup(group: LineGroup): LineGroup {
  let { horizontals, verticals } = group;
  for (let pass = 0; pass < 3; pass++) {
    const keptH = horizontals.filter((h) => verticals.filter((v) => crosses(h, v)).length >= 2);
    const keptV = verticals.filter((v) => keptH.filter((h) => crosses(h, v)).length >= 2);
    if (keptH.length === horizontals.length && keptV.length === verticals.length) break;
    horizontals = keptH;
    verticals = keptV;
  }
  return { horizontals, verticals };
}

interface TableDetectionOptions {
  minLineLength?: number;
  maxLineThickness?: number;
}

/** Ruled tables first; the words outside them are then searched for tables drawn without lines. */
export function findTables(image: GrayImage, words: TableWord[]): Table[] {
  const ruled = detectTables(image, words);
  const outside = words.filter((word) => !ruled.some((table) => contains(table.box, word)));
  const aligned = detectAlignedTables(outside, image);
  return [...ruled, ...aligned].sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left);
}

function contains(box: Box, word: TableWord): boolean {
  const x = (word.left + word.right) / 2;
  const y = (word.top + word.bottom) / 2;
  return x >= box.left && x <= box.left + box.width && y >= box.top && y <= box.top + box.height;
}

export function detectTables(image: GrayImage, words: TableWord[], options: TableDetectionOptions = {}): Table[] {
  const { width, height, data } = image;
  const minLineLength = options.minLineLength ?? Math.max(40, Math.round(0.03 * Math.max(width, height)));
  const maxLineThickness = options.maxLineThickness ?? Math.max(6, Math.round(0.004 * Math.max(width, height)));
  const { horizontals, verticals } = findLineSegments(image, otsuThreshold(data), minLineLength, maxLineThickness);

  const tables: Table[] = [];
  for (const group of groupCrossingLines(horizontals, verticals)) {
    const pruned = pruneGroup(group);
    if (pruned.horizontals.length < 2 || pruned.verticals.length < 2) continue;
    const table = buildTable(pruned, words, { width, height }, maxLineThickness);
    if (table) tables.push(table);
  }
  return tables.sort((a, b) => a.box.top - b.box.top || a.box.left - b.box.left);
}

function buildTable(group: LineGroup, words: TableWord[], page: { width: number; height: number }, maxThickness: number): Table | null {
  const tolerance = maxThickness + 4;
  const rowEdges = clusterPositions(
    group.horizontals.map((h) => (h.from + h.to) / 2),
    tolerance,
  );
  const columnEdges = clusterPositions(
    group.verticals.map((v) => (v.from + v.to) / 2),
    tolerance,
  );
  const rowCount = rowEdges.length - 1;
  const columnCount = columnEdges.length - 1;
  if (rowCount < 1 || columnCount < 1 || rowCount * columnCount < 2) return null;

  const hasSeparator = (columnEdge: number, top: number, bottom: number) => {
    const middle = (top + bottom) / 2;
    return group.verticals.some((v) => Math.abs((v.from + v.to) / 2 - columnEdge) <= tolerance && v.start - tolerance <= middle && v.end + tolerance >= middle);
  };

  const rows: Table["rows"] = [];
  for (let r = 0; r < rowCount; r++) {
    const top = rowEdges[r];
    const bottom = rowEdges[r + 1];
    const cells: TableCell[] = [];
    let c = 0;
    while (c < columnCount) {
      let span = 1;
      while (c + span < columnCount && !hasSeparator(columnEdges[c + span], top, bottom)) span++;
      const left = columnEdges[c];
      const right = columnEdges[c + span];
      const inside = words.filter((word) => {
        const centreX = (word.left + word.right) / 2;
        const centreY = (word.top + word.bottom) / 2;
        return centreX >= left && centreX < right && centreY >= top && centreY < bottom && !/^[|_]+$/.test(word.text);
      });
      cells.push({
        row_index: r,
        column_index: c,
        column_span: span,
        text: inside.map((word) => word.text).join(" "),
        confidence: inside.length === 0 ? null : Math.round((inside.reduce((sum, word) => sum + word.confidence, 0) / inside.length) * 1000) / 1000,
        box: makeBox(left, top, right, bottom, page),
      });
      c += span;
    }
    rows.push({ row_index: r, cells });
  }
  return {
    detection: "ruling_lines",
    row_count: rowCount,
    column_count: columnCount,
    box: makeBox(columnEdges[0], rowEdges[0], columnEdges[columnCount], rowEdges[rowCount], page),
    rows,
  };
}
