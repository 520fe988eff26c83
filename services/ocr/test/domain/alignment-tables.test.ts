import { describe, expect, it } from "vitest";
import type { TableWord } from "../../src/domain/table-types.js";
import { detectAlignedTables } from "../../src/domain/alignment-tables.js";

describe("table detection from alignment", () => {
  const page = { width: 2000, height: 2000 };
  const word = (text: string, left: number, top: number, width = text.length * 20): TableWord => ({
    text,
    confidence: 0.9,
    left,
    top,
    right: left + width,
    bottom: top + 40,
  });
  const rowOf = (top: number, cells: Array<[number, string]>) =>
    cells.flatMap(([left, text]) => {
      let x = left;
      return text.split(" ").map((part) => {
        const w = word(part, x, top);
        x = w.right + 12;
        return w;
      });
    });

  it("finds rows and columns separated by gutters, with cells in reading order", () => {
    const words = [
      ...rowOf(100, [[100, "Quarterly sales by region, in thousands"]]),
      ...rowOf(200, [
        [100, "Region"],
        [600, "Spring"],
        [900, "Autumn"],
      ]),
      ...rowOf(260, [
        [100, "North coast"],
        [600, "10"],
        [900, "12"],
      ]),
      ...rowOf(
        320,
        [
          [100, "South"],
          [600, "7"],
          [900, ""],
        ].filter(([, t]) => t !== "") as Array<[number, string]>,
      ),
      ...rowOf(380, [
        [100, "East"],
        [600, "30"],
        [900, "31"],
      ]),
    ];
    const tables = detectAlignedTables(words, page);
    expect(tables).toHaveLength(1);
    const [table] = tables;
    expect([table.detection, table.row_count, table.column_count]).toEqual(["alignment", 4, 3]);
    expect(table.rows.map((row) => row.cells.map((cell) => cell.text))).toEqual([
      ["Region", "Spring", "Autumn"],
      ["North coast", "10", "12"],
      ["South", "7", ""],
      ["East", "30", "31"],
    ]);
    expect(table.rows[2].cells[2].confidence).toBeNull();
    expect([table.box.left, table.box.top]).toEqual([100, 200]);
  });

  it("finds nothing in running text, in two columns of running text, or in two rows", () => {
    const paragraph = [0, 1, 2, 3].flatMap((i) => rowOf(100 + i * 60, [[100, "a line of ordinary running text that goes on"]]));
    expect(detectAlignedTables(paragraph, page)).toEqual([]);
    const twoColumns = [0, 1, 2, 3].flatMap((i) =>
      rowOf(100 + i * 60, [
        [100, "left column text runs on here"],
        [1100, "right column text runs on too"],
      ]),
    );
    expect(detectAlignedTables(twoColumns, page)).toEqual([]);
    const twoRows = [0, 1].flatMap((i) =>
      rowOf(100 + i * 60, [
        [100, "Name"],
        [600, "Value"],
      ]),
    );
    expect(detectAlignedTables(twoRows, page)).toEqual([]);
  });
});
