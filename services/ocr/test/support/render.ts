import sharp from "sharp";
import { seededRandom } from "@apiplat/testing";

/** Images with known text, drawn with the machine's fonts (Debian fonts-dejavu, fonts-noto-core, fonts-noto-cjk). */

function escapeMarkup(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export interface TextImageOptions {
  font?: string;
  pointSize?: number;
  dpi?: number;
  margin?: number;
  align?: "left" | "centre" | "right";
}

/** Text laid out by Pango (so Arabic and Hebrew are shaped and ordered right to left) on a white page. */
export async function renderTextImage(text: string, options: TextImageOptions = {}): Promise<sharp.Sharp> {
  const { font = "DejaVu Sans", pointSize = 12, dpi = 300, margin = 60, align = "left" } = options;
  // Pango draws white text on black: turn it into ink on paper, then add the page margin.
  const ink = await sharp({
    text: { text: escapeMarkup(text), font: `${font} ${pointSize}`, dpi, align, rgba: false },
  })
    .negate()
    .png()
    .toBuffer();
  const png = await sharp(ink).extend({ top: margin, bottom: margin, left: margin, right: margin, background: "#ffffff" }).png().toBuffer();
  return sharp(png);
}

export async function renderTextPng(text: string, options: TextImageOptions = {}): Promise<Buffer> {
  return (await renderTextImage(text, options)).png().toBuffer();
}

/** A page as a flatbed scan would give it: turned a few degrees, slightly blurred, speckled, grey paper, JPEG. */
export async function simulateScan(png: Buffer, degrees: number, seed = 7): Promise<Buffer> {
  const rotated = await sharp(png)
    .rotate(degrees, { background: "#ffffff" })
    .flatten({ background: "#ffffff" })
    .grayscale()
    .blur(0.7)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const random = seededRandom(seed);
  const pixels = rotated.data;
  for (let i = 0; i < pixels.length; i++) {
    const paper = pixels[i] * 0.92 + 8;
    const grain = (random() - 0.5) * 30;
    const speck = random() < 0.0015 ? -160 : 0;
    pixels[i] = Math.max(0, Math.min(255, Math.round(paper + grain + speck)));
  }
  return sharp(pixels, { raw: { width: rotated.info.width, height: rotated.info.height, channels: 1 } })
    .jpeg({ quality: 70 })
    .toBuffer();
}

export interface TableLayout {
  rows: string[][];
  columnWidths: number[];
  rowHeight: number;
  left: number;
  top: number;
  fontSize: number;
  lineWidth: number;
  /** Rows drawn as one cell across the whole table (no inner vertical lines); their text is in the first cell. */
  mergedRows?: number[];
}

/** Three columns of 100-pixel rows whose second row is merged across them: the geometry of the merged-row tests. */
export const MERGED_ROW_TABLE: Omit<TableLayout, "rows"> = {
  columnWidths: [500, 250, 250],
  rowHeight: 100,
  left: 80,
  top: 160,
  fontSize: 40,
  lineWidth: 3,
  mergedRows: [1],
};

/** A ruled table drawn as SVG (rendered by librsvg with fontconfig fonts): every cell has known text and a known box. */
export async function renderTablePng(layout: TableLayout, heading?: string): Promise<{ png: Buffer; width: number; height: number }> {
  const tableWidth = layout.columnWidths.reduce((a, b) => a + b, 0);
  const width = layout.left * 2 + tableWidth;
  const height = layout.top + layout.rows.length * layout.rowHeight + 120;
  const merged = new Set(layout.mergedRows ?? []);
  const columnEdges = layout.columnWidths.reduce((edges, w) => [...edges, edges[edges.length - 1] + w], [layout.left]);
  const parts: string[] = [];
  const line = (x1: number, y1: number, x2: number, y2: number) =>
    parts.push(`<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="black" stroke-width="${layout.lineWidth}"/>`);
  if (heading) {
    parts.push(`<text x="${layout.left}" y="${layout.top - 60}" font-family="DejaVu Sans" font-size="${layout.fontSize}">${escapeMarkup(heading)}</text>`);
  }
  for (let r = 0; r <= layout.rows.length; r++) {
    const y = layout.top + r * layout.rowHeight;
    line(layout.left, y, layout.left + tableWidth, y);
  }
  layout.rows.forEach((cells, r) => {
    const top = layout.top + r * layout.rowHeight;
    columnEdges.forEach((x, c) => {
      const inner = c > 0 && c < columnEdges.length - 1;
      if (!(inner && merged.has(r))) line(x, top, x, top + layout.rowHeight);
    });
    const baseline = top + Math.round(layout.rowHeight / 2 + layout.fontSize * 0.35);
    cells.forEach((text, c) => {
      parts.push(`<text x="${columnEdges[c] + 20}" y="${baseline}" font-family="DejaVu Sans" font-size="${layout.fontSize}">${escapeMarkup(text)}</text>`);
    });
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${parts.join("")}</svg>`;
  const png = await sharp(Buffer.from(svg)).flatten({ background: "#ffffff" }).png().toBuffer();
  return { png, width, height };
}

/** White text on a black banner and light grey on a dark grey one, with black text on white between them
 * (a 1600 x 900 page for renderSvgPng). */
export const BANNER_PAGE_SVG = `<rect x="100" y="100" width="1400" height="140" fill="black"/>
<text x="140" y="195" font-family="DejaVu Sans" font-size="60" fill="white">Quarterly Report Summary</text>
<text x="140" y="400" font-family="DejaVu Serif" font-size="46">Revenue grew by twelve percent this quarter.</text>
<rect x="100" y="500" width="1400" height="100" fill="#222"/>
<text x="140" y="570" font-family="DejaVu Sans" font-size="44" fill="#eee">Contact: sales at example dot com</text>`;

/** An SVG page rendered to PNG: white paper, the given elements. */
export async function renderSvgPng(width: number, height: number, body: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${body}</svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: "#ffffff" }).png().toBuffer();
}

/** The bounding box of ink (pixels darker than mid-grey) inside a region: ground truth for where a word is. */
export function inkBox(gray: { width: number; data: Buffer }, region: { left: number; top: number; right: number; bottom: number }) {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let y = region.top; y < region.bottom; y++) {
    for (let x = region.left; x < region.right; x++) {
      if (gray.data[y * gray.width + x] < 128) {
        left = Math.min(left, x);
        top = Math.min(top, y);
        right = Math.max(right, x);
        bottom = Math.max(bottom, y);
      }
    }
  }
  return { left, top, right: right + 1, bottom: bottom + 1 };
}

/** A PDF whose pages are JPEG scans (the shape of a scanned document), written by hand: header, objects, xref. */
export function pdfOfJpegPages(pages: Array<{ jpeg: Buffer; width: number; height: number; dpi: number }>): Buffer {
  const chunks: Buffer[] = [Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  const offsets: number[] = [];
  let length = chunks[0].length;
  const addObject = (body: Buffer | string) => {
    offsets.push(length);
    const bytes = typeof body === "string" ? Buffer.from(body, "latin1") : body;
    chunks.push(bytes);
    length += bytes.length;
  };
  const pageIds = pages.map((_, i) => 3 + i * 3);
  addObject("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n");
  addObject(`2 0 obj\n<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>\nendobj\n`);
  pages.forEach((page, i) => {
    const [pageId, contentId, imageId] = [3 + i * 3, 4 + i * 3, 5 + i * 3];
    const widthPt = (page.width * 72) / page.dpi;
    const heightPt = (page.height * 72) / page.dpi;
    addObject(
      `${pageId} 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${widthPt.toFixed(2)} ${heightPt.toFixed(2)}] /Resources << /XObject << /Im0 ${imageId} 0 R >> >> /Contents ${contentId} 0 R >>\nendobj\n`,
    );
    const content = `q ${widthPt.toFixed(2)} 0 0 ${heightPt.toFixed(2)} 0 0 cm /Im0 Do Q`;
    addObject(`${contentId} 0 obj\n<< /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\n`);
    addObject(
      Buffer.concat([
        Buffer.from(
          `${imageId} 0 obj\n<< /Type /XObject /Subtype /Image /Width ${page.width} /Height ${page.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length ${page.jpeg.length} >>\nstream\n`,
          "latin1",
        ),
        page.jpeg,
        Buffer.from("\nendstream\nendobj\n", "latin1"),
      ]),
    );
  });
  const xrefAt = length;
  const xref = [`xref\n0 ${offsets.length + 1}\n`, "0000000000 65535 f \n", ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  chunks.push(Buffer.from(`${xref}trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`, "latin1"));
  return Buffer.concat(chunks);
}

/** A 24-bit bottom-up BMP (the common Windows form), optionally padded to an exact file size. */
export function encodeBmp24(gray: { width: number; height: number; data: Buffer }, padToBytes?: number): Buffer {
  const rowBytes = Math.ceil((gray.width * 3) / 4) * 4;
  const pixelBytes = rowBytes * gray.height;
  const fileSize = padToBytes ?? 54 + pixelBytes;
  const out = Buffer.alloc(fileSize);
  out.write("BM", 0, "latin1");
  out.writeUInt32LE(fileSize, 2);
  out.writeUInt32LE(54, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(gray.width, 18);
  out.writeInt32LE(gray.height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(24, 28);
  out.writeUInt32LE(pixelBytes, 34);
  for (let y = 0; y < gray.height; y++) {
    const row = 54 + (gray.height - 1 - y) * rowBytes;
    for (let x = 0; x < gray.width; x++) {
      const v = gray.data[y * gray.width + x];
      out[row + x * 3] = v;
      out[row + x * 3 + 1] = v;
      out[row + x * 3 + 2] = v;
    }
  }
  return out;
}

/** An 8-bit palette BMP, top-down (negative height), grey palette. */
export function encodeBmp8TopDown(gray: { width: number; height: number; data: Buffer }): Buffer {
  const rowBytes = Math.ceil(gray.width / 4) * 4;
  const paletteBytes = 256 * 4;
  const offset = 54 + paletteBytes;
  const out = Buffer.alloc(offset + rowBytes * gray.height);
  out.write("BM", 0, "latin1");
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(offset, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(gray.width, 18);
  out.writeInt32LE(-gray.height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(8, 28);
  out.writeUInt32LE(256, 46);
  for (let i = 0; i < 256; i++) {
    out[54 + i * 4] = i;
    out[54 + i * 4 + 1] = i;
    out[54 + i * 4 + 2] = i;
  }
  for (let y = 0; y < gray.height; y++) gray.data.copy(out, offset + y * rowBytes, y * gray.width, (y + 1) * gray.width);
  return out;
}

export async function toGrayRaw(image: Buffer): Promise<{ width: number; height: number; data: Buffer }> {
  const { data, info } = await sharp(image).flatten({ background: "#ffffff" }).grayscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}
