import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import * as S from "../src/schemas.js";
import { multipartBody, ocrUnderTest } from "./support/app.js";
import { characterAccuracy, withoutSpaces } from "./support/accuracy.js";
import { BANNER_PAGE_SVG, encodeBmp24, encodeBmp8TopDown, pdfOfJpegPages, renderSvgPng, renderTextPng, simulateScan, toGrayRaw } from "./support/render.js";

/** The accuracy every rendered sample must reach: 1 - CER of at least 0.95 (at most 5 wrong characters in 100). */
const MIN_CHARACTER_ACCURACY = 0.95;

const ocr = ocrUnderTest({ OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8" });
let server: Server;
let baseUrl: string;
const served = new Map<string, Buffer>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = served.get(req.url ?? "");
    if (!body) {
      res.writeHead(404).end("not here");
      return;
    }
    res.writeHead(200, { "content-type": "application/octet-stream" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.close();
});

const extract = (payload: object) => ocr.api().post(S.ExtractResultSchema, "/extract", payload);

const SAMPLES: Array<{ language: string; font: string; text: string; unspaced?: boolean }> = [
  {
    language: "eng",
    font: "DejaVu Serif",
    text: "It was a bright cold day in April, and the clocks were striking thirteen.\nInvoice 2024-0042: total 1,234.56 EUR due 31 March.",
  },
  {
    language: "deu",
    font: "DejaVu Sans",
    text: "Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich.\nFür Rückfragen stehen wir Ihnen gern zur Verfügung.",
  },
  { language: "fra", font: "DejaVu Serif", text: "Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter.\nLa facture est payable à trente jours." },
  {
    language: "rus",
    font: "DejaVu Sans",
    text: "Съешь же ещё этих мягких французских булок, да выпей чаю.\nСчёт должен быть оплачен в течение тридцати дней.",
  },
  { language: "chi_sim", font: "Noto Sans CJK SC", text: "我们的发票已经寄出，请在三十天内付款。\n光学字符识别把图像中的文字变成文本。", unspaced: true },
  { language: "jpn", font: "Noto Sans CJK JP", text: "東京都の天気は晴れです。\n請求書は来週までにお送りします。", unspaced: true },
  { language: "ara", font: "Noto Naskh Arabic", text: "مرحبا بكم في خدمة التعرف الضوئي على الحروف\nالفاتورة مستحقة الدفع خلال ثلاثين يوما" },
  { language: "heb", font: "Noto Sans Hebrew", text: "שלום עולם, זהו מבחן של זיהוי תווים\nהחשבונית תשולם בתוך שלושים יום" },
];

describe("recognition accuracy on rendered text", () => {
  for (const sample of SAMPLES) {
    it(`reads ${sample.language} (${sample.font}) with character accuracy >= ${MIN_CHARACTER_ACCURACY}`, async () => {
      const png = await renderTextPng(sample.text, { font: sample.font, pointSize: 14 });
      const { width, height } = await sharp(png).metadata();
      const res = await extract({ image: png.toString("base64"), language: sample.language });
      expect(res.status).toBe(200);
      const data = res.data;
      const accuracy = sample.unspaced ? characterAccuracy(withoutSpaces(sample.text), withoutSpaces(data.text)) : characterAccuracy(sample.text, data.text);
      expect(accuracy).toBeGreaterThanOrEqual(MIN_CHARACTER_ACCURACY);
      expect(data.text.split("\n")).toHaveLength(2);
      expect(data).toMatchObject({ language: sample.language, psm: 3, format: "png", page_count: 1, pages_processed: 1 });
      expect(data.pages).toHaveLength(1);
      expect(data.pages[0]).toMatchObject({ page_number: 1, width, height, dpi: null, rotation_degrees: 0, skew_degrees: 0, text: data.text });
      expect(data.pages[0].word_count).toBeGreaterThan(3);
      expect(data.confidence).toBeGreaterThan(0.6);
      expect(data.confidence).toBeLessThanOrEqual(1);
      expect(data.timing.total_ms).toBeGreaterThanOrEqual(data.timing.recognize_ms);
      expect(data.pages[0]).not.toHaveProperty("blocks");
    });
  }

  it("reads light text on dark banners as well as the dark text around it", async () => {
    const png = await renderSvgPng(1600, 900, BANNER_PAGE_SVG);
    const res = await extract({ image: png.toString("base64") });
    expect(res.status).toBe(200);
    expect(res.data.text).toBe("Quarterly Report Summary\n\nRevenue grew by twelve percent this quarter.\n\nContact: sales at example dot com");
  });

  it("reads a page mixing two languages with language eng+deu", async () => {
    const text = "Delivery note for the order of Friday.\nLieferschein für die Bestellung vom Freitag.";
    const png = await renderTextPng(text, { pointSize: 14 });
    const res = await extract({ image: png.toString("base64"), language: "eng+deu" });
    expect(res.status).toBe(200);
    expect(res.data.language).toBe("eng+deu");
    expect(characterAccuracy(text, res.data.text)).toBeGreaterThanOrEqual(MIN_CHARACTER_ACCURACY);
  });

  it("straightens a skewed, noisy JPEG scan and reports the skew it corrected", async () => {
    const text =
      "The scanner fed this page in at an angle.\nSkew correction levels the lines before reading.\nInvoice 2024-0042: total 1,234.56 EUR due 31 March.";
    const png = await renderTextPng(text, { font: "DejaVu Serif", pointSize: 11 });
    for (const degrees of [4, -6]) {
      const res = await extract({ image: (await simulateScan(png, degrees)).toString("base64") });
      expect(res.status).toBe(200);
      expect(res.data.format).toBe("jpeg");
      expect(Math.abs(res.data.pages[0].skew_degrees - degrees)).toBeLessThanOrEqual(0.3);
      expect(characterAccuracy(text, res.data.text)).toBeGreaterThanOrEqual(MIN_CHARACTER_ACCURACY);
    }
  });

  it("turns a photo upright by its EXIF orientation before reading it", async () => {
    const text = "The camera held this page sideways.\nIts EXIF tag says which way is up.";
    const upright = await renderTextPng(text, { pointSize: 14 });
    // Stored turned a quarter counter-clockwise, tagged 6: viewers (and the service) turn it a quarter clockwise.
    const sideways = await sharp(await sharp(upright).rotate(270).toBuffer())
      .withMetadata({ orientation: 6 })
      .jpeg({ quality: 92 })
      .toBuffer();
    expect((await sharp(sideways).metadata()).orientation).toBe(6);
    const res = await extract({ image: sideways.toString("base64") });
    expect(res.status).toBe(200);
    expect(characterAccuracy(text, res.data.text)).toBeGreaterThanOrEqual(MIN_CHARACTER_ACCURACY);
    const { width, height } = await sharp(upright).metadata();
    expect([res.data.pages[0].width, res.data.pages[0].height]).toEqual([width, height]);
  });

  it("reads a page scanned upside down once told to rotate it", async () => {
    const text = "This page was placed on the scanner upside down.\nA half turn puts it right.";
    const upsideDown = await sharp(await renderTextPng(text, { pointSize: 14 }))
      .rotate(180)
      .png()
      .toBuffer();
    const turned = await extract({ image: upsideDown.toString("base64"), rotate: 180 });
    expect(turned.status).toBe(200);
    expect(turned.data.pages[0].rotation_degrees).toBe(180);
    expect(characterAccuracy(text, turned.data.text)).toBeGreaterThanOrEqual(MIN_CHARACTER_ACCURACY);
  });

  it("turns upside-down and sideways pages upright by default, says by how much, and leaves an upright page alone", async () => {
    const text = [
      "This page was placed on the scanner the wrong way round.",
      "Orientation detection finds which way is up before reading.",
      "Invoice 2041 totals 1,234.56 EUR and is due in thirty days.",
      "Please quote the invoice number with your payment.",
    ].join("\n");
    const upright = await renderTextPng(text, { pointSize: 14 });
    // Turned clockwise by `angle` when scanned: the service turns it back by 360 - angle.
    for (const angle of [0, 90, 180, 270]) {
      const scanned = angle === 0 ? upright : await sharp(upright).rotate(angle).png().toBuffer();
      const res = await extract({ image: scanned.toString("base64") });
      expect(res.status).toBe(200);
      const page = res.data.pages[0];
      expect(page.rotation_degrees).toBe((360 - angle) % 360);
      expect(page.orientation?.rotation_degrees).toBe((360 - angle) % 360);
      // Four lines give OSD a margin near its threshold: either it was sure, or both readings were compared.
      expect(["osd", "recognition"]).toContain(page.orientation?.decided_by);
      expect(page.orientation?.osd_confidence).toBeGreaterThan(0);
      expect(characterAccuracy(text, res.data.text)).toBeGreaterThanOrEqual(MIN_CHARACTER_ACCURACY);
      expect(res.data.timing.orientation_ms).toBeGreaterThan(0);
    }
  });

  it("with auto_rotate false, or an explicit rotate, reads the page as given (no detection)", async () => {
    const text = "This page was placed on the scanner upside down.\nA half turn puts it right.";
    const upsideDown = await sharp(await renderTextPng(text, { pointSize: 14 }))
      .rotate(180)
      .png()
      .toBuffer();
    const asGiven = await extract({ image: upsideDown.toString("base64"), auto_rotate: false });
    expect(asGiven.status).toBe(200);
    expect(asGiven.data.pages[0]).toMatchObject({ rotation_degrees: 0, orientation: null });
    expect(asGiven.data.timing.orientation_ms).toBe(0);
    expect(characterAccuracy(text, asGiven.data.text)).toBeLessThan(0.5);
    const told = await extract({ image: upsideDown.toString("base64"), rotate: 180 });
    expect(told.data.pages[0]).toMatchObject({ rotation_degrees: 180, orientation: null });
    // rotate with auto_rotate true: the stated turn first, then detection (which then finds the page upright).
    const both = await extract({ image: upsideDown.toString("base64"), rotate: 180, auto_rotate: true });
    expect(both.data.pages[0]).toMatchObject({ rotation_degrees: 180, orientation: { rotation_degrees: 0 } });
    expect(characterAccuracy(text, both.data.text)).toBeGreaterThanOrEqual(MIN_CHARACTER_ACCURACY);
  });

  it("checks an unsure detection by reading both ways: a heading and one line turned upside down", async () => {
    const text = "Kansas Saloon Smashers\nReleased in 1901.";
    const upsideDown = await sharp(await renderTextPng(text, { pointSize: 16 }))
      .rotate(180)
      .png()
      .toBuffer();
    const res = await extract({ image: upsideDown.toString("base64") });
    expect(res.status).toBe(200);
    expect(res.data.pages[0].rotation_degrees).toBe(180);
    expect(["osd", "recognition"]).toContain(res.data.pages[0].orientation?.decided_by);
    expect(characterAccuracy(text, res.data.text)).toBeGreaterThanOrEqual(MIN_CHARACTER_ACCURACY);
  });
});

describe("inputs and formats", () => {
  const text = "Receipt number 8841 for the amount of 72.40";
  let png: Buffer;
  beforeAll(async () => {
    png = await renderTextPng(text, { pointSize: 14 });
  });
  const expectText = (data: { text: string }) => expect(characterAccuracy(text, data.text)).toBeGreaterThanOrEqual(MIN_CHARACTER_ACCURACY);

  it("reads GIF (the first frame of an animated one)", async () => {
    const still = await sharp(png).gif().toBuffer();
    const one = await extract({ image: still.toString("base64") });
    expect([one.status, one.data.format, one.data.page_count]).toEqual([200, "gif", 1]);
    expectText(one.data);
    // Two frames stacked as pages: the first is the text, the second blank.
    const { width, height } = (await sharp(png).metadata()) as { width: number; height: number };
    const blank = await sharp({ create: { width, height, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer();
    const frames = await sharp([png, blank], { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(frames).metadata()).pages).toBe(2);
    const animated = await extract({ image: frames.toString("base64") });
    expect([animated.status, animated.data.format, animated.data.page_count]).toEqual([200, "gif", 1]);
    expectText(animated.data);
  });

  it("reads JPEG, TIFF, WebP, 24-bit and 8-bit BMP", async () => {
    const gray = await toGrayRaw(png);
    const inputs: Array<[string, Buffer]> = [
      ["jpeg", await sharp(png).jpeg({ quality: 85 }).toBuffer()],
      ["tiff", await sharp(png).tiff({ compression: "lzw" }).toBuffer()],
      ["webp", await sharp(png).webp({ quality: 90 }).toBuffer()],
      ["bmp", encodeBmp24(gray)],
      ["bmp", encodeBmp8TopDown(gray)],
    ];
    for (const [format, bytes] of inputs) {
      const res = await extract({ image: bytes.toString("base64") });
      expect([res.status, res.data.format]).toEqual([200, format]);
      expectText(res.data);
    }
  });

  it("accepts a data: URL as image", async () => {
    const res = await extract({ image: `data:image/png;base64,${png.toString("base64")}` });
    expect(res.status).toBe(200);
    expectText(res.data);
  });

  it("reads a multipart upload with options as form fields", async () => {
    const { payload, contentType } = await multipartBody(png, { language: "eng+deu", psm: "6" });
    const res = await ocr.api().post(S.ExtractResultSchema, "/extract", payload, { ...ocr.caller.headers, "content-type": contentType });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ language: "eng+deu", psm: 6, format: "png" });
    expectText(res.data);
  });

  it("fetches an image by URL through the outbound guard", async () => {
    served.set("/receipt.webp", await sharp(png).webp().toBuffer());
    const res = await extract({ url: `${baseUrl}/receipt.webp` });
    expect([res.status, res.data.format]).toEqual([200, "webp"]);
    expectText(res.data);
  });

  it("answers 502 when the URL does not answer with the file", async () => {
    const res = await extract({ url: `${baseUrl}/missing.png` });
    expect([res.status, res.error.code, res.error.message]).toEqual([502, "UPSTREAM_ERROR", "Fetching the url returned HTTP 404."]);
  });

  it("reads the pages of a scanned PDF, all or a selection, rendered at the requested dpi", async () => {
    const pages = await Promise.all(
      ["Page one says apples", "Page two says pears", "Page three says plums"].map(async (line) => {
        const page = await renderTextPng(line, { pointSize: 14, dpi: 200 });
        const { width, height } = await sharp(page).metadata();
        return { jpeg: await sharp(page).toColourspace("b-w").jpeg({ quality: 90 }).toBuffer(), width: width!, height: height!, dpi: 200 };
      }),
    );
    const pdf = pdfOfJpegPages(pages).toString("base64");
    const all = await extract({ image: pdf });
    expect(all.status).toBe(200);
    expect(all.data).toMatchObject({ format: "pdf", page_count: 3, pages_processed: 3 });
    expect(all.data.pages.map((p) => [p.page_number, p.dpi])).toEqual([
      [1, 300],
      [2, 300],
      [3, 300],
    ]);
    const expected = ["Page one says apples", "Page two says pears", "Page three says plums"];
    expect(characterAccuracy(expected.join("\n\n"), all.data.text)).toBeGreaterThanOrEqual(MIN_CHARACTER_ACCURACY);
    all.data.pages.forEach((page, i) => expect(characterAccuracy(expected[i], page.text)).toBeGreaterThanOrEqual(0.9));
    expect(all.data.text.split("\n\n")).toHaveLength(3);
    expect(all.data.pages[0].width).toBe(Math.round((pages[0].width / 200) * 300));

    const selected = await extract({ image: pdf, pages: "3,1", dpi: 150 });
    expect(selected.status).toBe(200);
    expect(selected.data.pages.map((p) => [p.page_number, p.dpi])).toEqual([
      [1, 150],
      [3, 150],
    ]);
    expect(selected.data.pages[0].text).toMatch(/apples/);
    expect(selected.data.pages[1].text).toMatch(/plums/);
    expect(selected.data.pages[0].width).toBe(Math.round((pages[0].width / 200) * 150));

    const outOfRange = await extract({ image: pdf, pages: "4" });
    expect([outOfRange.status, outOfRange.error.details]).toEqual([400, [{ field: "pages", issue: "must be between 1 and 3 (the document has 3 pages)" }]]);
  });

  it("reads the pages of a multi-page TIFF", async () => {
    const first = await renderTextPng("First sheet of the fax", { pointSize: 14 });
    const second = await sharp(await renderTextPng("Second sheet of the fax", { pointSize: 14 }))
      .resize((await sharp(first).metadata()).width, (await sharp(first).metadata()).height, { fit: "contain", background: "#ffffff" })
      .png()
      .toBuffer();
    const tiff = await sharp([first, second], { join: { animated: true } })
      .tiff()
      .toBuffer();
    const res = await extract({ image: tiff.toString("base64") });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ format: "tiff", page_count: 2, pages_processed: 2 });
    expect(res.data.pages.map((p) => p.text)).toEqual(["First sheet of the fax", "Second sheet of the fax"]);
  });
});
