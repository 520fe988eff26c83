import type { Box } from "./geometry.js";

/** What table detection reads (OCR words) and finds (tables of cells): shared by both detectors. */

export interface TableWord {
  text: string;
  confidence: number;
  /** Pixel rectangle: left, top, right, bottom. */
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface TableCell {
  row_index: number;
  column_index: number;
  column_span: number;
  text: string;
  confidence: number | null;
  box: Box;
}

export interface Table {
  /** How the table was found: its ruling lines, or the alignment of its words into rows and columns. */
  detection: "ruling_lines" | "alignment";
  row_count: number;
  column_count: number;
  box: Box;
  rows: Array<{ row_index: number; cells: TableCell[] }>;
}
