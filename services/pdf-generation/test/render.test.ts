import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PlanName } from "@apiplat/config";
import { describeAuth } from "@apiplat/testing/auth-suite";
import { PDFDocument, PDFName, PDFString } from "pdf-lib";
import { html, pagedHtml, pdfBytes, TEST_SETTINGS, startSite, type TestService, type TestSite, whenBrowsersWarm } from "./helpers.js";
import { startService } from "@apiplat/testing";
import pdfService from "../src/service.js";
import { readFileSync } from "node:fs";
import { allFontsEmbedded, fontNames, pageSizes, pageTexts, pdfInfo, pixelAt, wordBoxes } from "./pdf-tools.js";

let service: TestService;
let site: TestSite;

beforeAll(async () => {
  service = await whenBrowsersWarm(await startService(pdfService, { env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8" }, settings: TEST_SETTINGS }));
  site = await startSite({
    "/pixel.png": (_req, res) => {
      // A 1x1 transparent PNG.
      res
        .writeHead(200, { "content-type": "image/png" })
        .end(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64"));
    },
  });
});
afterAll(async () => {
  await service?.close();
  await site?.close();
});

/** POST /from-html as a subscriber of `plan`: `render` for the PDF's bytes, `ask` for an answer in JSON. */
const render = (payload: Record<string, unknown>, plan: PlanName = "PRO", query = "") => service.post("/from-html", payload, plan, query);
const ask = (payload: Record<string, unknown>, plan: PlanName = "PRO", query = "") => service.ask("/from-html", payload, plan, query);

describeAuth({ started: () => service, method: "POST", url: "/from-html", payload: { html: "<p>x</p>" } });

describe("rendering", () => {
  test("renders an A4 portrait PDF with the text, the file name and the page count and render time headers", async () => {
    const res = await render({ html: html("<h1>Invoice 2041</h1><p>Total due: 120.00 EUR</p>"), filename: "invoice-2041" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="invoice-2041.pdf"; filename*=UTF-8''invoice-2041.pdf`);
    expect(res.headers["x-page-count"]).toBe("1");
    expect(res.headers["x-page-limit"]).toBe("100");
    expect(Number(res.headers["x-render-time-ms"])).toBeGreaterThan(0);
    const pdf = pdfBytes(res);
    const info = pdfInfo(pdf);
    expect(info.pages).toBe(1);
    expect(info.widthPt).toBeCloseTo(595.92, 0);
    expect(info.heightPt).toBeCloseTo(841.92, 0);
    expect(info.tagged).toBe(false);
    const text = pageTexts(pdf)[0];
    expect(text).toContain("Invoice 2041");
    expect(text).toContain("Total due: 120.00 EUR");
  });

  test("page_size and orientation set the page box in points", async () => {
    const letter = await render({ html: html("<p>Letter</p>"), page_size: "Letter", orientation: "landscape" });
    expect(pageSizes(pdfBytes(letter))).toEqual([{ width: 792, height: 612 }]);
    const legal = await render({ html: html("<p>Legal</p>"), page_size: "Legal" });
    expect(pageSizes(pdfBytes(legal))).toEqual([{ width: 612, height: 1008 }]);
  });

  test("margin sets where the content starts, for all sides at once or per side", async () => {
    const page = html('<p style="margin:0;font-size:12pt">Marker</p>', "<style>body { margin: 0 }</style>");
    const oneInch = wordBoxes(pdfBytes(await render({ html: page, margin: "1in" })));
    expect(oneInch[0].word).toBe("Marker");
    expect(Math.abs(oneInch[0].xMin - 72)).toBeLessThan(1.5);
    expect(oneInch[0].yMin).toBeGreaterThanOrEqual(71);
    expect(oneInch[0].yMin).toBeLessThan(80);
    const perSide = wordBoxes(pdfBytes(await render({ html: page, margin: { left: "50mm", top: "20pt" } })));
    // 50mm = 141.73pt; Chromium lays the page out in whole CSS pixels, so the box starts within a pixel of it.
    expect(Math.abs(perSide[0].xMin - (50 / 25.4) * 72)).toBeLessThan(1.5);
    expect(perSide[0].yMin).toBeGreaterThanOrEqual(19);
    expect(perSide[0].yMin).toBeLessThan(28);
  });

  test("header and footer appear on every page with the right page number and total", async () => {
    const res = await render({
      html: pagedHtml(3),
      title: "Quarterly report",
      header_html: "<span>{{title}}</span>",
      footer_html: '<div style="text-align:center">Page {{page}} of {{ pages }}</div>',
    });
    expect(res.statusCode).toBe(200);
    const pages = pageTexts(pdfBytes(res));
    expect(pages).toHaveLength(3);
    pages.forEach((text, i) => {
      expect(text).toContain("Quarterly report");
      expect(text).toContain(`Page ${i + 1} of 3`);
      expect(text).toContain(`Page body ${i + 1}`);
    });
  });

  test("the header uses a readable default font size (9px = 6.75pt)", async () => {
    const res = await render({ html: html("<p>Body</p>"), header_html: "HeaderMark" });
    const box = wordBoxes(pdfBytes(res)).find((w) => w.word === "HeaderMark")!;
    expect(box.yMax - box.yMin).toBeGreaterThan(6);
    expect(box.yMax - box.yMin).toBeLessThan(11);
  });

  test("watermark_text is drawn diagonally on every page", async () => {
    const res = await render({ html: pagedHtml(3), watermark_text: "DRAFT" });
    const pdf = pdfBytes(res);
    const pages = pageTexts(pdf);
    expect(pages).toHaveLength(3);
    for (let page = 1; page <= 3; page++) {
      // Rotated text comes out of pdftotext one or two letters per "word", climbing from bottom-left to top-right.
      const letters = wordBoxes(pdf, page).filter((w) => /^[DRAFT]+$/.test(w.word));
      expect(letters.map((w) => w.word).join("")).toBe("DRAFT");
      const first = letters[0];
      const last = letters[letters.length - 1];
      expect(last.xMin).toBeGreaterThan(first.xMin + 50);
      expect(last.yMin).toBeLessThan(first.yMin - 50);
    }
  });

  test("css adds a stylesheet after the document's own", async () => {
    const res = await render({ html: html('<p class="secret">Hidden words</p><p>Visible words</p>'), css: ".secret { display: none }" });
    const text = pageTexts(pdfBytes(res))[0];
    expect(text).toContain("Visible words");
    expect(text).not.toContain("Hidden words");
  });

  test("scale enlarges the content: what fits one page at 1 needs more pages at 2", async () => {
    const body = html(Array.from({ length: 20 }, (_, i) => `<p>Line ${i}</p>`).join(""));
    const normal = await render({ html: body });
    const doubled = await render({ html: body, scale: 2 });
    expect(normal.headers["x-page-count"]).toBe("1");
    expect(Number(doubled.headers["x-page-count"])).toBeGreaterThanOrEqual(2);
  });

  test("Latin, CJK and Arabic text renders with embedded fonts", async () => {
    const res = await render({ html: html('<p>Grüße</p><p lang="zh">你好世界</p><p lang="ja">日本語のテキスト</p><p dir="rtl" lang="ar">مرحبا بالعالم</p>') });
    const pdf = pdfBytes(res);
    const text = pageTexts(pdf)[0];
    expect(text).toContain("Grüße");
    expect(text).toContain("你好世界");
    expect(text).toContain("日本語のテキスト");
    expect(text).toMatch(/مرحبا|ملاعلاب/);
    expect(allFontsEmbedded(pdf)).toBe(true);
  });

  test("flexbox, grid and page breaks are laid out", async () => {
    const body = html(
      '<div style="display:flex;justify-content:space-between"><span>FlexLeft</span><span>FlexRight</span></div>' +
        '<div style="display:grid;grid-template-columns:1fr 1fr"><span>GridA</span><span>GridB</span></div>' +
        '<div style="break-before:page">AfterBreak</div>',
    );
    const pdf = pdfBytes(await render({ html: body }));
    const words = wordBoxes(pdf, 1);
    const x = (word: string) => words.find((w) => w.word === word)!.xMin;
    expect(x("FlexRight")).toBeGreaterThan(400);
    expect(x("GridB") - x("GridA")).toBeGreaterThan(200);
    expect(pageTexts(pdf)[1]).toContain("AfterBreak");
  });

  test("a web font given as a data: URL is used and embedded", async () => {
    const font = readFileSync("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf").toString("base64");
    const head = `<style>@font-face { font-family: "Brand"; src: url(data:font/ttf;base64,${font}) format("truetype"); } p { font-family: "Brand"; }</style>`;
    const pdf = pdfBytes(await render({ html: html("<p>Branded text</p>", head) }));
    expect(fontNames(pdf).some((name) => name.endsWith("+DejaVuSansMono"))).toBe(true);
    expect(allFontsEmbedded(pdf)).toBe(true);
  });

  test("print_background prints background colours; false leaves the page white", async () => {
    const page = html("<p>Red page</p>", "<style>html, body { background: rgb(255, 0, 0); height: 100%; }</style>");
    expect(pixelAt(pdfBytes(await render({ html: page })), 0.5, 0.5)).toEqual([255, 0, 0]);
    expect(pixelAt(pdfBytes(await render({ html: page, print_background: false })), 0.5, 0.5)).toEqual([255, 255, 255]);
  });

  test("emulate_media chooses between print and screen stylesheets", async () => {
    const page = html('<p class="screen-only">Screen words</p><p>Common words</p>', "<style>@media print { .screen-only { display: none } }</style>");
    expect(pageTexts(pdfBytes(await render({ html: page })))[0]).not.toContain("Screen words");
    expect(pageTexts(pdfBytes(await render({ html: page, emulate_media: "screen" })))[0]).toContain("Screen words");
  });

  test("prefer_css_page_size lets @page size win over page_size", async () => {
    const page = html("<p>A5 page</p>", "<style>@page { size: A5 }</style>");
    expect(pageSizes(pdfBytes(await render({ html: page })))[0].width).toBeCloseTo(595.92, 0);
    const a5 = pageSizes(pdfBytes(await render({ html: page, prefer_css_page_size: true })))[0];
    // A5 is 419.53 x 595.28 pt; Chromium rounds the page box to whole CSS pixels.
    expect(Math.abs(a5.width - 419.53)).toBeLessThan(1);
    expect(Math.abs(a5.height - 595.28)).toBeLessThan(1);
  });

  test("?response=json answers with base64 and metadata", async () => {
    const res = await ask({ html: html("<title>Doc title</title><p>JSON form</p>"), filename: "x.pdf" }, "PRO", "?response=json");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("success");
    const { data } = res;
    expect(data).toMatchObject({
      filename: "x.pdf",
      content_type: "application/pdf",
      page_count: 1,
      page_limit: 100,
      tagged: false,
      title: "Doc title",
      lang: "en",
      blocked_requests: [],
    });
    const pdf = Buffer.from(data.content_base64, "base64");
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(data.size_bytes).toBe(pdf.byteLength);
    expect(pageTexts(pdf)[0]).toContain("JSON form");
  });

  test("a non-ASCII file name is sent in both Content-Disposition forms", async () => {
    const res = await render({ html: html("<p>x</p>"), filename: "résumé" });
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`);
  });
});

describe("accessibility (pdf_ua)", () => {
  test("pdf_ua gives a tagged PDF with language, title, outline and DisplayDocTitle", async () => {
    const res = await ask(
      { html: html("<h1>Annual report</h1><h2>Revenue</h2><p>Text</p>"), pdf_ua: true, title: "Annual report 2026", lang: "de" },
      "PRO",
      "?response=json",
    );
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ tagged: true, title: "Annual report 2026", lang: "de" });
    const pdf = Buffer.from(res.data.content_base64, "base64");
    const info = pdfInfo(pdf);
    expect(info.tagged).toBe(true);
    expect(info.title).toBe("Annual report 2026");
    const doc = await PDFDocument.load(pdf);
    expect(doc.catalog.get(PDFName.of("StructTreeRoot"))).toBeDefined();
    expect(doc.catalog.get(PDFName.of("Outlines"))).toBeDefined();
    expect((doc.catalog.get(PDFName.of("Lang")) as PDFString).decodeText()).toBe("de");
    expect(String(doc.catalog.lookup(PDFName.of("ViewerPreferences")))).toContain("/DisplayDocTitle true");
  });

  test("the document's own lang and title are kept when the request names none", async () => {
    const res = await ask(
      { html: '<html lang="fr"><head><title>Rapport</title></head><body><h1>Bonjour</h1></body></html>', pdf_ua: true },
      "PRO",
      "?response=json",
    );
    expect(res.data).toMatchObject({ tagged: true, title: "Rapport", lang: "fr" });
  });
});

describe("scripts and network lockdown", () => {
  const scripted = html('<p id="out">static</p><script>document.getElementById("out").textContent = "script ran"</script>');

  test("scripts do not run by default", async () => {
    const text = pageTexts(pdfBytes(await render({ html: scripted })))[0];
    expect(text).toContain("static");
    expect(text).not.toContain("script ran");
  });

  test("javascript: true runs the document's scripts", async () => {
    const text = pageTexts(pdfBytes(await render({ html: scripted, javascript: true })))[0];
    expect(text).toContain("script ran");
  });

  test("a cloud metadata address in an <img> is never requested", async () => {
    const res = await ask({ html: html('<img src="http://169.254.169.254/latest/meta-data/"><p>After</p>') }, "PRO", "?response=json");
    expect(res.status).toBe(200);
    expect(res.data.blocked_requests).toEqual([
      { url: "http://169.254.169.254/latest/meta-data/", reason: "http://169.254.169.254 is not in allowed_origins" },
    ]);
  });

  test("the metadata address stays refused even when listed in allowed_origins", async () => {
    const res = await ask(
      { html: html('<img src="http://169.254.169.254/latest/meta-data/">'), allowed_origins: ["http://169.254.169.254"] },
      "PRO",
      "?response=json",
    );
    const [blocked] = res.data.blocked_requests;
    expect(blocked.url).toBe("http://169.254.169.254/latest/meta-data/");
    expect(blocked.reason).toMatch(/private, loopback, link-local or metadata/);
  });

  test("a server not in allowed_origins receives no request; one in it does", async () => {
    const image = `<img src="${site.origin}/pixel.png">`;
    await render({ html: html(image) });
    expect(site.hits.get("/pixel.png")).toBeUndefined();
    const res = await ask({ html: html(image), allowed_origins: [`${site.origin}/`] }, "PRO", "?response=json");
    expect(res.data.blocked_requests).toEqual([]);
    expect(site.hits.get("/pixel.png")).toBe(1);
  });

  test("file: URLs are refused", async () => {
    const res = await ask(
      { html: html('<iframe src="file:///etc/passwd"></iframe><link rel="stylesheet" href="file:///etc/hostname">') },
      "PRO",
      "?response=json",
    );
    const pdf = Buffer.from(res.data.content_base64, "base64");
    expect(pageTexts(pdf)[0]).not.toContain("root:");
  });

  test("data: URLs load", async () => {
    const res = await ask({ html: html('<iframe src="data:text/html,<p>FromDataUrl</p>" style="border:0"></iframe>') }, "PRO", "?response=json");
    expect(res.data.blocked_requests).toEqual([]);
    expect(pageTexts(Buffer.from(res.data.content_base64, "base64"))[0]).toContain("FromDataUrl");
  });
});
