import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { decodeBmp, BmpError } from "../src/domain/bmp.js";
import { inkedRegion, toPageCoordinates } from "../src/domain/content-crop.js";
import { parsePgm, toPgm } from "../src/domain/gray-image.js";
import { estimateSkewDegrees } from "../src/domain/deskew.js";
import { openDocument } from "../src/engine/document.js";
import { InputLimitError, OcrBusyError, OcrTimeoutError } from "../src/domain/errors.js";
import { sniffFormat } from "../src/domain/formats.js";
import { LANGUAGE_CATALOGUE, describeLanguages, parseLanguageSpec } from "../src/domain/languages.js";
import { cleanText } from "../src/domain/layout.js";
import { dpiWithinPixelLimit, parsePageSelection } from "../src/engine/pdf.js";
import { EnginePool, type OcrEngine } from "../src/engine/pool.js";
import type { TableWord } from "../src/domain/table-types.js";
import { detectTables } from "../src/domain/tables.js";
import { detectAlignedTables } from "../src/domain/alignment-tables.js";
import { encodeBmp24, encodeBmp8TopDown, renderSvgPng, renderTablePng, renderTextPng, simulateScan, toGrayRaw } from "./support/render.js";

const installed = new Set(["eng", "deu", "fra", "spa", "ita", "chi_sim"]);

describe("language specs", () => {
  it("accepts installed codes joined by +", () => {
    expect(parseLanguageSpec("eng+deu", installed)).toEqual({ ok: true, codes: ["eng", "deu"] });
  });
  it("accepts five languages and refuses six", () => {
    expect(parseLanguageSpec("eng+deu+fra+spa+ita", installed)).toEqual({ ok: true, codes: ["eng", "deu", "fra", "spa", "ita"] });
    expect(parseLanguageSpec("eng+deu+fra+spa+ita+chi_sim", installed)).toEqual({ ok: false, issue: "must name at most 5 languages" });
  });
  it("names what is not installed", () => {
    expect(parseLanguageSpec("eng+kor", installed)).toEqual({ ok: false, issue: "'kor' is not installed; GET /languages lists the installed ones" });
  });
  it("refuses repeats and malformed specs", () => {
    expect(parseLanguageSpec("eng+eng", installed)).toEqual({ ok: false, issue: "must not repeat a language" });
    expect(parseLanguageSpec("eng,deu", installed).ok).toBe(false);
    expect(parseLanguageSpec("../etc", installed).ok).toBe(false);
  });
  it("lists the whole Tesseract catalogue with installed flags and Debian package names", () => {
    const entries = describeLanguages(installed);
    expect(entries).toHaveLength(LANGUAGE_CATALOGUE.length);
    expect(LANGUAGE_CATALOGUE.length).toBeGreaterThanOrEqual(120);
    expect(entries.find((e) => e.code === "chi_sim")).toEqual({
      code: "chi_sim",
      name: "Chinese (Simplified)",
      installed: true,
      debian_package: "tesseract-ocr-chi-sim",
    });
    expect(entries.find((e) => e.code === "kor")).toEqual({ code: "kor", name: "Korean", installed: false, debian_package: "tesseract-ocr-kor" });
  });
});

describe("page selection", () => {
  it("parses ranges into sorted unique pages", () => {
    expect(parsePageSelection("3,1-2,2", 5)).toEqual({ ok: true, pages: [1, 2, 3] });
  });
  it("refuses pages past the end and backwards ranges", () => {
    expect(parsePageSelection("4", 3)).toEqual({ ok: false, issue: "must be between 1 and 3 (the document has 3 pages)" });
    expect(parsePageSelection("3-2", 3).ok).toBe(false);
    expect(parsePageSelection("0", 3).ok).toBe(false);
    expect(parsePageSelection("a", 3).ok).toBe(false);
  });
  it("lowers the PDF render resolution so a page stays within the pixel limit", () => {
    // A4 is 595 x 842 pt: at 300 dpi 2480 x 3508 = 8.7 MP.
    expect(dpiWithinPixelLimit({ widthPt: 595, heightPt: 842 }, 300, 40_000_000)).toBe(300);
    // A0 (2384 x 3370 pt) at 300 dpi would be 139 MP: 160 dpi gives 7450 x 4966... within 40 MP.
    const dpi = dpiWithinPixelLimit({ widthPt: 2384, heightPt: 3370 }, 300, 40_000_000);
    expect(dpi).toBe(160);
    expect(Math.ceil((2384 / 72) * dpi) * Math.ceil((3370 / 72) * dpi)).toBeLessThanOrEqual(40_000_000);
  });
});

describe("format sniffing", () => {
  it("recognises each accepted format by its bytes", async () => {
    const png = await renderSvgPng(40, 20, "");
    expect(sniffFormat(png)).toBe("png");
    expect(sniffFormat(await sharp(png).jpeg().toBuffer())).toBe("jpeg");
    expect(sniffFormat(await sharp(png).tiff().toBuffer())).toBe("tiff");
    expect(sniffFormat(await sharp(png).webp().toBuffer())).toBe("webp");
    expect(sniffFormat(encodeBmp24(await toGrayRaw(png)))).toBe("bmp");
    expect(sniffFormat(Buffer.from("%PDF-1.7\n..."))).toBe("pdf");
    expect(sniffFormat(await sharp(png).gif().toBuffer())).toBe("gif");
    expect(sniffFormat(Buffer.from("GIF87a\x01\x00\x01\x00", "latin1"))).toBe("gif");
    expect(sniffFormat(Buffer.from("GIF90a......"))).toBeNull();
    expect(sniffFormat(Buffer.from("hello"))).toBeNull();
  });
});

describe("BMP decoding", () => {
  const gray = { width: 5, height: 3, data: Buffer.from([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 255]) };
  const expectGray = (decoded: { width: number; height: number; data: Buffer }) => {
    expect([decoded.width, decoded.height]).toEqual([5, 3]);
    for (let i = 0; i < 15; i++) expect([...decoded.data.subarray(i * 4, i * 4 + 4)]).toEqual([gray.data[i], gray.data[i], gray.data[i], 255]);
  };
  it("decodes 24-bit bottom-up rows with padding", () => expectGray(decodeBmp(encodeBmp24(gray))));
  it("decodes 8-bit palette top-down rows", () => expectGray(decodeBmp(encodeBmp8TopDown(gray))));
  it("refuses run-length compressed files and truncated pixel data", () => {
    const rle = encodeBmp8TopDown(gray);
    rle.writeUInt32LE(1, 30);
    expect(() => decodeBmp(rle)).toThrow(BmpError);
    expect(() => decodeBmp(encodeBmp24(gray).subarray(0, 60))).toThrow("BMP pixel data is truncated");
  });
});

describe("cropping a page to its ink", () => {
  const page = (width: number, height: number, inked: Array<[number, number]>) => {
    const data = Buffer.alloc(width * height, 255);
    for (const [x, y] of inked) data[y * width + x] = 40;
    return { width, height, data };
  };

  it("finds the inked rectangle exactly and keeps 24 px of white around it", () => {
    const image = page(1000, 800, [
      [300, 200],
      [650, 210],
      [420, 590],
      [299, 400],
    ]);
    expect(inkedRegion(image)).toEqual({ left: 299 - 24, top: 200 - 24, width: 651 + 24 - (299 - 24), height: 591 + 24 - (200 - 24) });
    const region = inkedRegion(image)!;
    const cropped = parsePgm(toPgm(image, region));
    expect([cropped.width, cropped.height]).toEqual([region.width, region.height]);
    expect(cropped.data[(200 - region.top) * cropped.width + (300 - region.left)]).toBe(40);
    expect(cropped.data.reduce((inked, value) => inked + (value === 40 ? 1 : 0), 0)).toBe(4);
    const fullWidth = { left: 0, top: region.top, width: image.width, height: region.height };
    expect(parsePgm(toPgm(image, fullWidth)).data).toEqual(image.data.subarray(region.top * image.width, (region.top + region.height) * image.width));
  });

  it("leaves a blank page, and one inked from edge to edge, uncropped", () => {
    expect(inkedRegion(page(400, 300, []))).toBeNull();
    expect(
      inkedRegion(
        page(400, 300, [
          [0, 0],
          [399, 299],
        ]),
      ),
    ).toBeNull();
  });

  it("moves every box the engine found back to page coordinates", () => {
    const bbox = { x0: 1, y0: 2, x1: 30, y1: 40 };
    const moved = toPageCoordinates(
      {
        text: "a",
        confidence: 90,
        blocks: [
          { text: "a", confidence: 90, bbox, paragraphs: [{ lines: [{ text: "a", confidence: 90, bbox, words: [{ text: "a", confidence: 90, bbox }] }] }] },
        ],
      },
      { left: 100, top: 200, width: 50, height: 60 },
    );
    const block = moved.blocks![0];
    const shifted = { x0: 101, y0: 202, x1: 130, y1: 240 };
    expect([block.bbox, block.paragraphs[0].lines[0].bbox, block.paragraphs[0].lines[0].words[0].bbox]).toEqual([shifted, shifted, shifted]);
  });
});

describe("text clean-up", () => {
  it("drops the spaces Tesseract puts inside Chinese and Japanese runs, and trailing blanks", () => {
    expect(cleanText("我 们 的 发 票 ， 请 付款 。 \n東京 都 の IKEA 2024 年 \n\n")).toBe("我们的发票，请付款。\n東京都の IKEA 2024 年");
  });
});

describe("image limits", () => {
  it("decodes an image of exactly the pixel limit and refuses one pixel row more", async () => {
    const limits = { maxPixels: 40_000_000, maxPages: 10, toolTimeoutMs: 30_000 };
    const atLimit = await sharp({ create: { width: 8000, height: 5000, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer();
    const source = await openDocument(atLimit, { dpi: 300 }, limits);
    const page = await source.render(1);
    expect([page.image.width, page.image.height, page.image.data.length]).toEqual([8000, 5000, 40_000_000]);
    const over = await sharp({ create: { width: 8000, height: 5001, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer();
    const overSource = await openDocument(over, { dpi: 300 }, limits);
    await expect(overSource.render(1)).rejects.toThrow(
      new InputLimitError("image", "is 8000x5001 = 40,008,000 pixels; at most 40,000,000 pixels are accepted"),
    );
  });
});

describe("skew estimation", () => {
  it("measures the angle a scan was turned by, to within 0.3 degrees", async () => {
    const png = await renderTextPng(
      "Projection profiles level the lines of a page.\nEvery line of text adds to the sharpest profile.\nA third line makes the estimate steadier still.",
      { pointSize: 11 },
    );
    for (const degrees of [4, -7]) {
      const scan = await toGrayRaw(await simulateScan(png, degrees));
      expect(Math.abs(estimateSkewDegrees(scan) - degrees)).toBeLessThanOrEqual(0.3);
    }
    expect(Math.abs(estimateSkewDegrees(await toGrayRaw(png)))).toBeLessThanOrEqual(0.1);
  });
  it("leaves a blank page alone", async () => {
    expect(estimateSkewDegrees(await toGrayRaw(await renderSvgPng(400, 300, "")))).toBe(0);
  });
});

describe("table detection", () => {
  const layout = {
    rows: [
      ["Region", "Q1", "Q2"],
      ["Total for the year", "", ""],
      ["North", "10", "12"],
    ],
    columnWidths: [500, 250, 250],
    rowHeight: 100,
    left: 80,
    top: 160,
    fontSize: 40,
    lineWidth: 3,
    mergedRows: [1],
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

class FakeEngine implements OcrEngine {
  static created = 0;
  terminated = false;
  constructor(
    public languages: string,
    readonly serial = ++FakeEngine.created,
  ) {}
  async setLanguages(languages: string) {
    this.languages = languages;
  }
  async terminate() {
    this.terminated = true;
  }
}

describe("engine pool", () => {
  const newPool = (size: number, maxQueue: number) =>
    new EnginePool<FakeEngine>({ size, maxQueue, createEngine: async (languages) => new FakeEngine(languages) });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("reuses an engine already loaded with the requested languages", async () => {
    const pool = newPool(2, 4);
    await pool.warm("eng");
    const first = (await pool.run("chi_sim", 1000, async (engine) => engine)).result;
    const second = (await pool.run("eng", 1000, async (engine) => engine)).result;
    const third = (await pool.run("chi_sim", 1000, async (engine) => engine)).result;
    expect(third).toBe(first);
    expect(second).not.toBe(first);
    expect([first.languages, second.languages]).toEqual(["chi_sim", "eng"]);
    await pool.close();
  });

  it("terminates an engine whose job overruns and serves the next job with a fresh one", async () => {
    const pool = newPool(1, 4);
    let stuck: FakeEngine | undefined;
    await expect(
      pool.run("eng", 50, async (engine) => {
        stuck = engine;
        await sleep(500);
        return 1;
      }),
    ).rejects.toThrow(OcrTimeoutError);
    expect(stuck?.terminated).toBe(true);
    const next = await pool.run("eng", 1000, async (engine) => engine);
    expect(next.result).not.toBe(stuck);
    expect(pool.stats()).toEqual({ size: 1, busy: 0, queued: 0, replaced: 1 });
    await pool.close();
  });

  it("retires an engine after a job marked large, so its memory is given back", async () => {
    const pool = newPool(1, 4);
    const large = await pool.run("eng", 1000, async (engine) => engine, { retireAfter: true });
    expect(large.result.terminated).toBe(true);
    const next = await pool.run("eng", 1000, async (engine) => engine);
    expect(next.result).not.toBe(large.result);
    expect(next.result.terminated).toBe(false);
    await pool.close();
  });

  it("queues up to maxQueue jobs and refuses the next one", async () => {
    const pool = newPool(1, 2);
    const running = [0, 1, 2].map(() => pool.run("eng", 1000, async () => sleep(100)));
    await expect(pool.run("eng", 1000, async () => 1)).rejects.toThrow(OcrBusyError);
    expect(pool.stats().queued).toBe(2);
    await Promise.all(running);
    expect(pool.stats()).toEqual({ size: 1, busy: 0, queued: 0, replaced: 0 });
    await pool.close();
  });
});
