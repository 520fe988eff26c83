/**
 * RSS 2.0 and Atom 1.0 documents -> feed items (pure: the text of the feed in, items out). RSS 1.0 (RDF) items are
 * read the same way as RSS 2.0 ones.
 */
import { XMLParser } from "fast-xml-parser";

export interface FeedItem {
  title: string | null;
  link: string | null;
  description: string | null;
  author: string | null;
  published_at: Date | null;
  image_url: string | null;
  categories: string[];
}

interface ParsedFeed {
  format: "rss" | "atom";
  title: string | null;
  items: FeedItem[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: false,
  processEntities: true,
  htmlEntities: true,
  isArray: (name) => ["item", "entry", "link", "category", "media:content", "media:thumbnail", "enclosure", "author"].includes(name),
});

type Node = Record<string, unknown>;

function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value === "object") return text((value as Node)["#text"]);
  return null;
}

/** Tags removed and whitespace collapsed: feeds carry HTML in their descriptions. */
function plainText(html: string | null): string | null {
  if (!html) return null;
  const clean = tagsAsSpaces(html).replace(/\s+/g, " ").trim();
  return clean === "" ? null : clean;
}

/**
 * Replaces each tag with a space, as `/<[^>]*>/g` does, in linear time: no tag ends after the last ">", so the
 * pattern runs only up to it, where every "<" it tries succeeds (a run of unclosed "<" would cost quadratic time).
 */
function tagsAsSpaces(html: string): string {
  const end = html.lastIndexOf(">") + 1;
  // eslint-disable-next-line regexp/no-super-linear-move -- linear here: every "<" before `end` has a ">" after it.
  return html.slice(0, end).replace(/<[^>]*>/g, " ") + html.slice(end);
}

function date(value: string | null): Date | null {
  if (!value) return null;
  const parsed = new Date(value.trim());
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

function imageOf(item: Node): string | null {
  for (const key of ["media:content", "media:thumbnail", "enclosure"]) {
    for (const media of (item[key] as Node[] | undefined) ?? []) {
      const url = media["@_url"];
      const type = String(media["@_type"] ?? media["@_medium"] ?? (key === "media:thumbnail" ? "image" : ""));
      if (typeof url === "string" && type.startsWith("image")) return url;
    }
  }
  return null;
}

function rssItem(item: Node): FeedItem {
  return {
    title: plainText(text(item.title)),
    link: text(item.link)?.trim() ?? null,
    description: plainText(text(item.description)),
    author: plainText(text(item["dc:creator"]) ?? text(item.author)),
    published_at: date(text(item.pubDate) ?? text(item["dc:date"])),
    image_url: imageOf(item),
    categories: ((item.category as unknown[]) ?? []).map(text).filter((c): c is string => !!c),
  };
}

function atomLink(entry: Node): string | null {
  const links = (entry.link as Node[] | undefined) ?? [];
  const alternate = links.find((l) => (l["@_rel"] ?? "alternate") === "alternate") ?? links[0];
  return typeof alternate?.["@_href"] === "string" ? (alternate["@_href"] as string) : null;
}

function atomEntry(entry: Node): FeedItem {
  const authors = (entry.author as Node[] | undefined) ?? [];
  return {
    title: plainText(text(entry.title)),
    link: atomLink(entry),
    description: plainText(text(entry.summary) ?? text(entry.content)),
    author: plainText(text(authors[0]?.name)),
    published_at: date(text(entry.published) ?? text(entry.updated)),
    image_url: imageOf(entry),
    categories: ((entry.category as Node[] | undefined) ?? []).map((c) => text(c["@_term"])).filter((c): c is string => !!c),
  };
}

/** Null when the document is neither RSS nor Atom. */
export function parseFeed(xml: string): ParsedFeed | null {
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch {
    return null;
  }
  const rss = (doc.rss as Node | undefined)?.channel as Node | undefined;
  const rdf = doc["rdf:RDF"] as Node | undefined;
  if (rss || rdf) {
    const channel = rss ?? (rdf?.channel as Node);
    const items = ((rss?.item ?? rdf?.item) as Node[] | undefined) ?? [];
    return { format: "rss", title: plainText(text(channel?.title)), items: items.map(rssItem) };
  }
  const feed = doc.feed as Node | undefined;
  if (feed) return { format: "atom", title: plainText(text(feed.title)), items: ((feed.entry as Node[]) ?? []).map(atomEntry) };
  return null;
}
