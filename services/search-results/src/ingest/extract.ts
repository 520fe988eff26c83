/** A fetched HTML page -> its main text (Readability over a linkedom document), its title, language and links. */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";

export interface ExtractedPage {
  title: string | null;
  text: string;
  /** The page's `<html lang>` as an ISO 639-1 code, when it says. */
  language: string | null;
  /** Absolute http(s) links of the page (none when it asks robots not to follow them). */
  links: string[];
  /** `<meta name="robots" content="noindex">`: the page asks not to be indexed. */
  noindex: boolean;
}

export function extractPage(html: string, url: string): ExtractedPage {
  const { document } = parseHTML(html);
  const robots = (document.querySelector('meta[name="robots" i]')?.getAttribute("content") ?? "").toLowerCase();
  const links: string[] = [];
  if (!robots.includes("nofollow")) {
    for (const anchor of Array.from(document.querySelectorAll("a[href]")) as Element[]) {
      if ((anchor.getAttribute("rel") ?? "").toLowerCase().includes("nofollow")) continue;
      try {
        const link = new URL(anchor.getAttribute("href") ?? "", url);
        if (link.protocol === "http:" || link.protocol === "https:") links.push(link.toString());
      } catch {
        // Not a URL: nothing to follow.
      }
    }
  }
  const lang = /^([a-zA-Z]{2})(?:[-_]|$)/.exec(document.documentElement?.getAttribute("lang") ?? "");
  const pageTitle = (document.title ?? "").trim();
  // Readability changes the document it reads: links and metadata are taken first.
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 100 }).parse();
  const text = (article?.textContent ?? document.body?.textContent ?? "").replace(/\s+/g, " ").trim();
  return {
    title: (article?.title || pageTitle).trim() || null,
    text,
    language: lang ? lang[1].toLowerCase() : null,
    links,
    noindex: robots.includes("noindex"),
  };
}
