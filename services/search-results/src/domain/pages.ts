/**
 * Pure rules that turn the datasets' records into indexed pages: URLs as they are shown, HTML bodies as text, the
 * Stack Exchange dump's rows, and the explicit-terms list `safe=active` filters on.
 */

/**
 * The URL that identifies a page whatever link pointed to it: lower-case host, no fragment, no trailing slash
 * (except the root). Null when the text is not an http(s) URL.
 */
export function canonicalUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  url.hash = "";
  if (url.pathname.length > 1 && url.pathname.endsWith("/")) url.pathname = url.pathname.slice(0, -1);
  return url.toString();
}

/** The link as a results page shows it: `https://en.wikipedia.org › wiki › Buster_Keaton` (SerpAPI's displayed_link). */
export function displayedLink(link: string): string {
  const url = new URL(link);
  const segments = url.pathname
    .split("/")
    .filter(Boolean)
    .map((s) => safeDecode(s));
  return [`${url.protocol}//${url.host}`, ...segments].join(" › ");
}

const SITE_NAMES: Record<string, string> = {
  "wikipedia-films": "Wikipedia",
  "wikipedia-people": "Wikipedia",
  "stackexchange-coffee": "Coffee Stack Exchange",
  "stackexchange-beer": "Beer, Wine & Spirits Stack Exchange",
};

/** The site a result comes from, as a results page names it; a crawled page's host. */
export function siteName(dataset: string, link: string): string {
  return SITE_NAMES[dataset] ?? new URL(link).host;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** `&lt;p&gt;`, `&#xA;`, `&#39;` -> their characters; an unknown named entity stays as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The text of an HTML fragment (a Stack Exchange post body): tags dropped, block ends as spaces, whitespace collapsed. */
export function htmlToText(html: string): string {
  const withoutCode = html.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, " ");
  return collapse(decodeEntities(tagsAsSpaces(withoutCode)));
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

/** Collapses whitespace and trims. */
export function collapse(text: string): string {
  // Control characters never belong in a page's text (and two of them mark highlights in snippets).
  return text
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Collapses whitespace; null for an empty text. */
export function cleanText(text: string | undefined | null): string | null {
  const clean = collapse(text ?? "");
  return clean === "" ? null : clean;
}

/** The attributes of one `<row .../>` line of a Stack Exchange dump, decoded; null when the line is not a row. */
export function parseDumpRow(line: string): Record<string, string> | null {
  const match = /^\s*<row\s([\s\S]*?)\/>\s*$/.exec(line);
  if (!match) return null;
  const attributes: Record<string, string> = {};
  // A name starts only where a run of name characters starts (the lookbehind): linear on a long run.
  const pattern = /(?<![\w.:-])([A-Za-z_:][\w.:-]*)="([^"]*)"/g;
  let consumed = 0;
  for (const attribute of match[1].matchAll(pattern)) {
    attributes[attribute[1]] = decodeEntities(attribute[2]);
    consumed += attribute[0].length;
  }
  // Anything but whitespace left between the attributes means the row is broken (an unclosed quote, say).
  if (match[1].replace(pattern, "").trim() !== "" || consumed === 0) return null;
  return attributes;
}

/** A dump's `2015-01-27T20:09:32.720` (UTC, no zone) as a Date; null when it is not one. */
export function parseDumpDate(text: string | undefined): Date | null {
  if (!text || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(text)) return null;
  const date = new Date(`${text}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `<http://dbpedia.org/resource/Choc\'late_Allen>` -> `https://en.wikipedia.org/wiki/Choc'late_Allen`; null otherwise. */
export function wikipediaUrlOfDbpedia(uri: string): string | null {
  const match = /^<?https?:\/\/dbpedia\.org\/resource\/([^>]+)>?$/.exec(uri.trim());
  if (!match) return null;
  const title = match[1].replace(/\\(.)/g, "$1");
  return `https://en.wikipedia.org/wiki/${encodeURI(title).replace(/%25([0-9A-F]{2})/g, "%$1")}`;
}

/** DBpedia names escape quotes as `\'`; the person's name as written. */
export function unescapeName(name: string): string {
  return name.replace(/\\(.)/g, "$1");
}

/**
 * The words `safe=active` filters on: a document that contains any of them (as a whole word, any case) is left out.
 * A word list, not a classifier: it removes pages that merely mention a word, and keeps explicit pages worded
 * otherwise.
 */
export const EXPLICIT_TERMS = [
  "porn",
  "porno",
  "pornography",
  "pornographic",
  "xxx",
  "nude",
  "nudes",
  "nudity",
  "naked",
  "sex",
  "sexual",
  "sexually",
  "sexy",
  "erotic",
  "erotica",
  "fetish",
  "orgy",
  "orgasm",
  "prostitute",
  "prostitutes",
  "prostitution",
  "stripper",
  "strippers",
  "hooker",
  "hookers",
  "rape",
  "raped",
  "incest",
  "genitals",
  "masturbation",
  "brothel",
] as const;

const EXPLICIT_PATTERN = new RegExp(`(?<![\\p{L}\\p{N}])(${EXPLICIT_TERMS.join("|")})(?![\\p{L}\\p{N}])`, "iu");

/** True when any of the texts holds a word of EXPLICIT_TERMS. */
export function isExplicit(...texts: (string | null | undefined)[]): boolean {
  return texts.some((text) => text != null && EXPLICIT_PATTERN.test(text));
}
