import { beforeAll, describe, expect, it } from "vitest";
import type { Static } from "typebox";
import * as S from "../src/schemas.js";
import { ocrUnderTest } from "./support/app.js";
import { characterAccuracy } from "./support/accuracy.js";
import { inkBox, MERGED_ROW_TABLE, renderSvgPng, renderTablePng, toGrayRaw } from "./support/render.js";

const ocr = ocrUnderTest();

const structured = async (png: Buffer, options: object = {}) => {
  const res = await ocr.api().post(S.StructuredResultSchema, "/extract/structured", { image: png.toString("base64"), ...options });
  expect(res.status).toBe(200);
  return res.data;
};

describe("POST /extract/structured: words, lines and blocks", () => {
  const width = 1600;
  const height = 900;
  const placed = [
    { text: "NORTH", x: 120, y: 160 },
    { text: "harbour", x: 520, y: 160 },
    { text: "SOUTH", x: 900, y: 720 },
  ];
  let png: Buffer;
  let data: Static<typeof S.StructuredResultSchema>;

  beforeAll(async () => {
    png = await renderSvgPng(
      width,
      height,
      placed.map((w) => `<text x="${w.x}" y="${w.y}" font-family="DejaVu Sans" font-size="64">${w.text}</text>`).join(""),
    );
    data = await structured(png);
  });

  it("puts each word's box on its ink, in pixels and normalised to the page", async () => {
    const gray = await toGrayRaw(png);
    const words = data.pages[0].blocks.flatMap((block) => block.lines.flatMap((line) => line.words));
    expect(words.map((w) => w.text).sort()).toEqual(["NORTH", "SOUTH", "harbour"]);
    for (const expected of placed) {
      const word = words.find((w) => w.text === expected.text)!;
      const ink = inkBox(gray, { left: expected.x - 20, top: expected.y - 80, right: Math.min(width, expected.x + 360), bottom: expected.y + 30 });
      expect(Math.abs(word.box.left - ink.left)).toBeLessThanOrEqual(3);
      expect(Math.abs(word.box.top - ink.top)).toBeLessThanOrEqual(3);
      expect(Math.abs(word.box.left + word.box.width - ink.right)).toBeLessThanOrEqual(3);
      expect(Math.abs(word.box.top + word.box.height - ink.bottom)).toBeLessThanOrEqual(3);
      expect(word.box.normalized.left).toBeCloseTo(word.box.left / width, 4);
      expect(word.box.normalized.top).toBeCloseTo(word.box.top / height, 4);
      expect(word.box.normalized.width).toBeCloseTo(word.box.width / width, 4);
      expect(word.box.normalized.height).toBeCloseTo(word.box.height / height, 4);
      expect(word.confidence).toBeGreaterThan(0.8);
    }
  });

  it("groups words into lines and blocks whose boxes contain them", () => {
    const page = data.pages[0];
    expect([page.width, page.height]).toEqual([width, height]);
    const lines = page.blocks.flatMap((block) => block.lines);
    expect(lines.map((line) => line.text)).toEqual(["NORTH harbour", "SOUTH"]);
    for (const block of page.blocks) {
      for (const line of block.lines) {
        expect(line.box.left).toBeGreaterThanOrEqual(block.box.left);
        expect(line.box.top + line.box.height).toBeLessThanOrEqual(block.box.top + block.box.height);
        for (const word of line.words) {
          expect(word.box.left).toBeGreaterThanOrEqual(line.box.left);
          expect(word.box.left + word.box.width).toBeLessThanOrEqual(line.box.left + line.box.width);
        }
      }
    }
    expect(page.tables).toEqual([]);
  });
});

describe("POST /extract/structured: tables", () => {
  it("finds a ruled table and returns its cells row by row, left to right, with their boxes", async () => {
    const rows = [
      ["Item", "Qty", "Price"],
      ["Apples", "12", "3.40"],
      ["Pears", "7", "2.10"],
      ["Plums", "30", "9.99"],
    ];
    const table = await renderTablePng(
      { rows, columnWidths: [400, 200, 260], rowHeight: 90, left: 100, top: 200, fontSize: 40, lineWidth: 3 },
      "Quarterly order summary",
    );
    const data = await structured(table.png);
    expect(characterAccuracy("Quarterly order summary", data.pages[0].text.split("\n")[0])).toBeGreaterThanOrEqual(0.95);
    const [found, ...others] = data.pages[0].tables;
    expect(others).toEqual([]);
    expect([found.detection, found.row_count, found.column_count]).toEqual(["ruling_lines", 4, 3]);
    expect([found.box.left, found.box.top, found.box.width, found.box.height]).toEqual([100, 200, 860, 360]);
    expect(found.rows.map((row) => row.cells.map((cell) => cell.text))).toEqual(rows);
    const price = found.rows[1].cells[2];
    expect(price).toMatchObject({ row_index: 1, column_index: 2, column_span: 1, text: "3.40" });
    expect([price.box.left, price.box.top, price.box.width, price.box.height]).toEqual([700, 290, 260, 90]);
    expect(price.box.normalized).toEqual({
      left: Number((700 / table.width).toFixed(4)),
      top: Number((290 / table.height).toFixed(4)),
      width: Number((260 / table.width).toFixed(4)),
      height: Number((90 / table.height).toFixed(4)),
    });
    expect(price.confidence).toBeGreaterThan(0.8);
  });

  it("reports a row without inner lines as one cell spanning the columns", async () => {
    const rows = [
      ["Region", "Spring", "Autumn"],
      ["Totals follow", "", ""],
      ["North", "10", "12"],
    ];
    const table = await renderTablePng({ rows, ...MERGED_ROW_TABLE });
    const data = await structured(table.png);
    const [found] = data.pages[0].tables;
    expect(found.rows.map((row) => row.cells.map((cell) => [cell.text, cell.column_span]))).toEqual([
      [
        ["Region", 1],
        ["Spring", 1],
        ["Autumn", 1],
      ],
      [["Totals follow", 3]],
      [
        ["North", 1],
        ["10", 1],
        ["12", 1],
      ],
    ]);
  });

  it("finds a table drawn without lines from the alignment of its words", async () => {
    const rows = [
      ["City", "Population", "Area"],
      ["Lisbon", "545000", "100"],
      ["Porto", "232000", "41"],
      ["Braga", "193000", "183"],
    ];
    const columns = [120, 700, 1200];
    const body = [
      '<text x="120" y="120" font-family="DejaVu Sans" font-size="40">Largest cities of the north and the capital</text>',
      ...rows.flatMap((cells, r) =>
        cells.map((text, c) => `<text x="${columns[c]}" y="${260 + r * 80}" font-family="DejaVu Sans" font-size="40">${text}</text>`),
      ),
    ].join("");
    const data = await structured(await renderSvgPng(1600, 700, body));
    const tables = data.pages[0].tables;
    expect(tables).toHaveLength(1);
    expect([tables[0].detection, tables[0].row_count, tables[0].column_count]).toEqual(["alignment", 4, 3]);
    expect(tables[0].rows.map((row) => row.cells.map((cell) => cell.text))).toEqual(rows);
    expect(Math.abs(tables[0].box.left - 120)).toBeLessThanOrEqual(4);
  });
});
