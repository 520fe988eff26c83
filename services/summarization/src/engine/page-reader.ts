import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { ApiError, errors } from "@apiplat/errors";
import { ResponseTooLargeError, type OutboundClient } from "@apiplat/outbound-guard";
import { MAX_ELEMENT_DEPTH, nestsDeeperThan } from "@apiplat/service-kit";
import { extractText, getDocumentProxy, getMeta } from "unpdf";

export interface Page {
  /** The page's title (HTML <title> as Readability cleans it, or the PDF's Title), when it has one. */
  title: string | null;
  /** The URL that answered, after redirects. */
  url: string;
  kind: "html" | "pdf" | "text";
  /** The main content, paragraphs separated by a blank line. */
  text: string;
}

interface PageReaderOptions {
  timeoutMs: number;
  maxBytes: number;
}

export interface PageReader {
  read(url: string, field?: string): Promise<Page>;
}

/** Main content with fewer letters than this is navigation or an error stub, not something to summarize. */
const MIN_LETTERS = 40;
const LETTER = /\p{L}/gu;
const ACCEPT = "text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8";
const BLOCKS = "p,h1,h2,h3,h4,h5,h6,li,blockquote,pre,div,section,article,header,footer,tr,dd,dt,figcaption,br";

/**
 * Fetches a page through the outbound guard (addresses checked before connecting and at every redirect, size and
 * time bounded) and returns its main content: Readability over linkedom for HTML, unpdf (PDF.js) for PDF.
 * Nothing here logs the page or its address: inputs are never logged.
 */
export function createPageReader(outbound: OutboundClient, options: PageReaderOptions): PageReader {
  return {
    async read(url, field = "url") {
      const response = await fetchPage(outbound, url, field, options);
      if (response.status >= 400) throw errors.upstream(`The page answered HTTP ${response.status}; nothing could be summarized.`);
      const contentType = String(response.headers["content-type"] ?? "").toLowerCase();
      const kind = pageKind(contentType, response.body);
      const page =
        kind === "pdf"
          ? await readPdf(response.body, response.url)
          : kind === "html"
            ? readHtml(decode(response.body, contentType), response.url, field)
            : { title: null, url: response.url, kind, text: decode(response.body, contentType) };
      if ((page.text.match(LETTER)?.length ?? 0) < MIN_LETTERS) {
        throw errors.unprocessable(`The page has no readable content: no ${kind === "pdf" ? "text layer" : "article text"} was found in it.`, [
          { field, issue: "points to a page with no readable text" },
        ]);
      }
      return page;
    },
  };
}

async function fetchPage(outbound: OutboundClient, url: string, field: string, options: PageReaderOptions) {
  try {
    return await outbound.fetch(url, { timeoutMs: options.timeoutMs, maxBytes: options.maxBytes, maxRedirects: 5, field, headers: { accept: ACCEPT } });
  } catch (error) {
    if (error instanceof ResponseTooLargeError) {
      throw errors.payloadTooLarge(field, `points to a page larger than ${options.maxBytes} bytes, the most this service reads`);
    }
    throw error instanceof ApiError ? withoutHosts(error) : error;
  }
}

/**
 * The outbound guard names hosts in its errors (the one asked for, or one a redirect pointed to), and the platform
 * logs every error's message. A host is part of the input (or of the fetched page), and inputs are never logged, so
 * the names are taken out; the error keeps its status, code and field.
 */
const HOST_MENTIONS: [RegExp, string][] = [
  [/host name \([^)]*\) /gu, "host name "],
  [/^\S+ did not answer/u, "The page did not answer"],
  [/Could not reach \S+\.$/u, "Could not reach the page's host."],
  [/redirected to \S+, which/u, "redirected to an address that"],
  [/redirects to \S+, which/gu, "redirects to an address that"],
  [/The host \S+ does not resolve/u, "The page's host does not resolve"],
];

function withoutHosts(error: ApiError): ApiError {
  const scrub = (text: string) => HOST_MENTIONS.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), text);
  const details = error.details?.map((detail) => ({ field: detail.field, issue: scrub(detail.issue) }));
  return new ApiError(error.statusCode, error.code, scrub(error.message), details, error.headers);
}

function pageKind(contentType: string, body: Buffer): Page["kind"] {
  if (contentType.includes("application/pdf") || body.subarray(0, 5).toString("latin1") === "%PDF-") return "pdf";
  if (contentType.includes("html") || contentType.includes("xml") || /^\s*</.test(body.subarray(0, 256).toString("latin1"))) return "html";
  if (contentType.startsWith("text/") || contentType === "") return "text";
  throw new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", `The page is ${contentType.split(";")[0]}; only HTML, PDF and plain-text pages can be summarized.`);
}

function decode(body: Buffer, contentType: string): string {
  const charset = /charset=([\w-]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

function readHtml(html: string, url: string, field: string): Page {
  const { document } = parseHTML(html);
  if (document.documentElement && nestsDeeperThan(document.documentElement, MAX_ELEMENT_DEPTH)) {
    throw errors.unprocessable(`The page's elements are nested more than ${MAX_ELEMENT_DEPTH} deep; such a page cannot be read.`, [
      { field, issue: `points to a page whose elements are nested more than ${MAX_ELEMENT_DEPTH} deep` },
    ]);
  }
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 200 }).parse();
  const title = (article?.title || document.title || "").trim() || null;
  return { title, url, kind: "html", text: article?.content ? blockText(article.content) : "" };
}

/** The article's HTML as text, one paragraph per block element. */
function blockText(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  document.querySelectorAll(BLOCKS).forEach((element: { after(text: string): void }) => element.after("\n\n"));
  return (document.body.textContent ?? "")
    .split(/\n\s*\n/)
    .map((block: string) => block.replace(/\s+/gu, " ").trim())
    .filter((block: string) => block.length > 0)
    .join("\n\n");
}

async function readPdf(body: Buffer, url: string): Promise<Page> {
  try {
    const pdf = await getDocumentProxy(new Uint8Array(body));
    const { text } = await extractText(pdf, { mergePages: false });
    const meta = await getMeta(pdf).catch(() => ({ info: {} as Record<string, unknown> }));
    const title = typeof meta.info?.Title === "string" && meta.info.Title.trim() ? meta.info.Title.trim() : null;
    await pdf.cleanup();
    // PDF text comes in lines; a blank line (or a page break) ends a paragraph, a single line break does not.
    const pages = text.map((page) =>
      page
        .split(/\n\s*\n/)
        .map((block) => block.replace(/(?<!\s)\s*\n\s*/g, " ").trim())
        .join("\n\n"),
    );
    return { title, url, kind: "pdf", text: pages.join("\n\n") };
  } catch {
    throw errors.unprocessable("The page is a PDF that could not be read (damaged or encrypted).", [{ field: "url", issue: "points to an unreadable PDF" }]);
  }
}
