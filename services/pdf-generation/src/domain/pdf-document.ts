import { PDFBool, PDFDict, PDFDocument, PDFName, PDFString } from "pdf-lib";
import { RenderError } from "./errors.js";

interface PdfFacts {
  pageCount: number;
  /** The catalog has a structure tree and MarkInfo /Marked true: assistive technology can read it. */
  tagged: boolean;
}

async function load(bytes: Uint8Array): Promise<PDFDocument> {
  return PDFDocument.load(bytes, { updateMetadata: false });
}

function isTagged(document: PDFDocument): boolean {
  const catalog = document.catalog;
  const structTree = catalog.get(PDFName.of("StructTreeRoot"));
  const markInfo = catalog.lookupMaybe(PDFName.of("MarkInfo"), PDFDict);
  return structTree !== undefined && markInfo?.get(PDFName.of("Marked")) === PDFBool.True;
}

/**
 * Page count and tagging of a PDF. Parsing a 1,000-page PDF with pdf-lib takes 0.5 to 1.5 s of the event loop;
 * Chromium writes plain (PDF 1.4, no object streams) page trees, whose root /Count can be read from the bytes in
 * milliseconds. Anything else is parsed.
 */
export async function inspectPdf(bytes: Uint8Array): Promise<PdfFacts> {
  const scanned = scanChromiumPdf(bytes);
  if (scanned) return scanned;
  const document = await load(bytes);
  return { pageCount: document.getPageCount(), tagged: isTagged(document) };
}

const PAGES_NODE = /<<\s*\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)/g;

/** The root of a page tree counts every page; intermediate nodes count fewer, so the largest /Count is the total. */
function scanChromiumPdf(bytes: Uint8Array): PdfFacts | null {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  if (!text.startsWith("%PDF-1.4") || !text.includes("/Producer (Skia/PDF") || text.includes("/ObjStm")) return null;
  let pageCount = 0;
  for (const match of text.matchAll(PAGES_NODE)) pageCount = Math.max(pageCount, Number(match[1]));
  if (pageCount === 0) return null;
  const tagged = /\/StructTreeRoot\s+\d+\s+\d+\s+R/.test(text) && /\/MarkInfo\s*<<[^>]*\/Marked\s+true/.test(text);
  return { pageCount, tagged };
}

/**
 * The accessibility entries Chromium leaves out: the document language in the catalog, and a title that viewers
 * show instead of the file name (PDF/UA requires both). Refuses, rather than returns, an untagged result.
 */
export async function finishAccessiblePdf(bytes: Uint8Array, meta: { title: string; lang: string }): Promise<{ pdf: Uint8Array; facts: PdfFacts }> {
  const document = await load(bytes);
  if (!isTagged(document)) {
    throw new RenderError("not_tagged", "pdf_ua was requested but the engine produced an untagged PDF; the document was not returned.");
  }
  document.catalog.set(PDFName.of("Lang"), PDFString.of(meta.lang));
  document.setTitle(meta.title, { showInWindowTitleBar: true });
  document.setLanguage(meta.lang);
  const pdf = await document.save({ useObjectStreams: false });
  return { pdf, facts: { pageCount: document.getPageCount(), tagged: true } };
}

/**
 * Concatenates PDFs in order. Each input is named by its position when it cannot be read. Every input is read
 * before any page is copied, so that `checkPageCount` can refuse the total before the costly part.
 */
export async function mergePdfs(inputs: Uint8Array[], checkPageCount: (total: number) => void = () => {}): Promise<{ pdf: Uint8Array; pageCount: number }> {
  const sources: PDFDocument[] = [];
  for (const [index, bytes] of inputs.entries()) sources.push(await loadInput(bytes, index));
  checkPageCount(sources.reduce((sum, source) => sum + source.getPageCount(), 0));
  const merged = await PDFDocument.create();
  for (const source of sources) {
    const pages = await merged.copyPages(source, source.getPageIndices());
    for (const page of pages) merged.addPage(page);
  }
  merged.setProducer("apiplat pdf-generation");
  const pdf = await merged.save();
  return { pdf, pageCount: merged.getPageCount() };
}

async function loadInput(bytes: Uint8Array, index: number): Promise<PDFDocument> {
  const field = `files[${index}]`;
  if (!startsWithPdfHeader(bytes)) {
    throw new RenderError("invalid_pdf", `${field} is not a PDF (it does not start with %PDF-).`, field, "must be a PDF document");
  }
  try {
    const document = await PDFDocument.load(bytes, { updateMetadata: false });
    if (document.getPageCount() === 0) throw new RenderError("invalid_pdf", `${field} has no pages.`, field, "must have at least one page");
    return document;
  } catch (error) {
    if (error instanceof RenderError) throw error;
    if (error instanceof Error && /is encrypted/i.test(error.message)) {
      throw new RenderError("invalid_pdf", `${field} is encrypted; decrypt it before merging.`, field, "must not be encrypted");
    }
    throw new RenderError("invalid_pdf", `${field} could not be read as a PDF (it may be damaged).`, field, "must be a readable PDF document");
  }
}

function startsWithPdfHeader(bytes: Uint8Array): boolean {
  // The header may follow a little garbage (up to 1 KiB, as readers tolerate).
  const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1");
  return head.includes("%PDF-");
}
