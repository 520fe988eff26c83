import { describe, expect, it } from "vitest";
import type { TableWord } from "../../src/domain/table-types.js";
import { detectTables } from "../../src/domain/tables.js";
import { MERGED_ROW_TABLE, renderSvgPng, renderTablePng, renderTextPng, toGrayRaw } from "../support/render.js";

describe("table detection", () => {
  const layout = {
    rows: [
      ["Region", "Q1", "Q2"],
      ["Total for the year", "", ""],
      ["North", "10", "12"],
    ],
    ...MERGED_ROW_TABLE,
  };
  const word = (text: string, left: number, top: number, right: number, bottom: number): TableWord => ({ text, confidence: 0.9, left, top, right, bottom });

  it("builds the grid from ruling lines, merges cells missing a separator, and places words by their centre", async () => {
    const { png, width, height } = await renderTablePng(layout);
    const words = [
      word("Region", 100, 190, 240, 230),
      word("Q1", 600, 190, 650, 230),
      word("Q2", 850, 190, 900, 230),
      word("Total", 100, 290, 200, 330),
      word("for", 210, 290, 260, 330),
      word("year", 700, 290, 780, 330),
      word("North", 100, 390, 220, 430),
      word("10", 600, 390, 640, 430),
      word("12", 850, 390, 890, 430),
      word("|", 578, 390, 582, 430),
      word("outside", 100, 40, 220, 80),
    ];
    const tables = detectTables(await toGrayRaw(png), words);
    expect(tables).toHaveLength(1);
    const [table] = tables;
    expect([table.detection, table.row_count, table.column_count]).toEqual(["ruling_lines", 3, 3]);
    expect([table.box.left, table.box.top, table.box.width, table.box.height]).toEqual([80, 160, 1000, 300]);
    expect(table.box.normalized).toEqual({
      left: Number((80 / width).toFixed(4)),
      top: Number((160 / height).toFixed(4)),
      width: Number((1000 / width).toFixed(4)),
      height: Number((300 / height).toFixed(4)),
    });
    const cells = table.rows.map((row) => row.cells.map((cell) => [cell.column_index, cell.column_span, cell.text]));
    expect(cells).toEqual([
      [
        [0, 1, "Region"],
        [1, 1, "Q1"],
        [2, 1, "Q2"],
      ],
      [[0, 3, "Total for year"]],
      [
        [0, 1, "North"],
        [1, 1, "10"],
        [2, 1, "12"],
      ],
    ]);
    const q2 = table.rows[0].cells[2];
    expect([q2.box.left, q2.box.top, q2.box.width, q2.box.height]).toEqual([830, 160, 250, 100]);
    expect(table.rows[1].cells[0].confidence).toBe(0.9);
  });

  it("finds no table in plain text or in a single framed box", async () => {
    const text = await toGrayRaw(await renderTextPng("No table here, only a line of words.\nAnd a second line.", { pointSize: 14 }));
    expect(detectTables(text, [])).toEqual([]);
    const frame = await toGrayRaw(await renderSvgPng(800, 400, '<rect x="50" y="50" width="700" height="300" fill="none" stroke="black" stroke-width="3"/>'));
    expect(detectTables(frame, [])).toEqual([]);
  });
});
