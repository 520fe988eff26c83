/** A fetched HTML page -> its main text (Readability over a linkedom document), its title, language and links. */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { MAX_ELEMENT_DEPTH, nestsDeeperThan } from "@apiplat/service-kit";

interface ExtractedPage {
  title: string | null;
  text: string;
  /** The page's `<html lang>` as an ISO 639-1 code, when it says. */
  language: string | null;
  /** Absolute http(s) links of the page (none when it asks robots not to follow them). */
  links: string[];
  /** `<meta name="robots" content="noindex">`: the page asks not to be indexed. */
  noindex: boolean;
  /** Elements nested deeper than MAX_ELEMENT_DEPTH: the page was not read (no title or text), only its links. */
  tooDeep: boolean;
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
  const language = lang ? lang[1].toLowerCase() : null;
  const noindex = robots.includes("noindex");
  if (document.documentElement && nestsDeeperThan(document.documentElement, MAX_ELEMENT_DEPTH)) {
    return { title: null, text: "", language, links, noindex, tooDeep: true };
  }
  // Readability changes the document it reads: links and metadata are taken first.
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 100 }).parse();
  const text = (article?.textContent ?? document.body?.textContent ?? "").replace(/\s+/g, " ").trim();
  return {
    title: (article?.title || pageTitle).trim() || null,
    text,
    language,
    links,
    noindex,
    tooDeep: false,
  };
}
