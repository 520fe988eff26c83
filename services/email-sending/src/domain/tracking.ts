import { Tokenizer, type TokenizerCallbacks } from "htmlparser2";

/** What the service changes in a message's HTML: tracked links, the open pixel, the unsubscribe footer. */

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Only absolute http(s) links are tracked: mailto:, tel:, anchors and relative links are left as written. */
function isTrackableLink(href: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(href.trim());
}

/** One `<a …>` start tag: where it and its href attributes are in the HTML, and the first href as a browser reads it. */
interface Anchor {
  /** Index of its `<`. */
  start: number;
  /** Index of its `>`. */
  end: number;
  /** The first href, entities decoded (null: none; "" for an href without a value). */
  href: string | null;
  /** Source ranges [from, to) of every href attribute, the first one first. */
  hrefRanges: [number, number][];
  noTrack: boolean;
}

const ignore = () => undefined;

function isAttribute(html: string, from: number, to: number, name: string): boolean {
  return to - from === name.length && html.slice(from, to).toLowerCase() === name;
}

/**
 * Every complete `<a>` start tag of `html`, in order, read by htmlparser2's tokenizer: one pass, no backtracking, so
 * the cost is linear in the HTML whatever its shape (unclosed tags and attributes, thousands of `<a `). Text inside
 * <script>, <style>, <title> and <textarea> is not markup and holds no links; a tag the HTML never closes is none.
 * `visit` returns false to stop reading.
 */
function forEachAnchor(html: string, visit: (anchor: Anchor) => boolean | void): void {
  let anchor: Anchor | null = null;
  let attribute: "href" | "no-track" | "other" = "other";
  let attributeStart = 0;
  let value = "";
  const endTag = (end: number) => {
    if (anchor && visit({ ...anchor, end }) === false) tokenizer.pause();
    anchor = null;
  };
  const callbacks: TokenizerCallbacks = {
    onopentagname(from, to) {
      const isAnchor = to - from === 1 && (html[from] === "a" || html[from] === "A");
      anchor = isAnchor ? { start: from - 1, end: -1, href: null, hrefRanges: [], noTrack: false } : null;
    },
    onattribname(from, to) {
      if (!anchor) return;
      attributeStart = from;
      attribute = isAttribute(html, from, to, "href") ? "href" : isAttribute(html, from, to, "data-no-track") ? "no-track" : "other";
      value = "";
    },
    onattribdata(from, to) {
      if (anchor && attribute === "href" && anchor.href === null) value += html.slice(from, to);
    },
    onattribentity(codepoint) {
      if (anchor && attribute === "href" && anchor.href === null) value += String.fromCodePoint(codepoint);
    },
    onattribend(_quote, end) {
      if (!anchor) return;
      if (attribute === "no-track") anchor.noTrack = true;
      if (attribute !== "href") return;
      if (anchor.href === null) anchor.href = value;
      anchor.hrefRanges.push([attributeStart, end]);
    },
    onopentagend: endTag,
    onselfclosingtag: endTag,
    oncdata: ignore,
    onclosetag: ignore,
    oncomment: ignore,
    ondeclaration: ignore,
    onend: ignore,
    onprocessinginstruction: ignore,
    ontext: ignore,
    ontextentity: ignore,
  };
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
}

/** The link an anchor is tracked under, or null: its first href (as browsers take it), unless marked data-no-track. */
function trackedHref(anchor: Anchor): string | null {
  if (anchor.noTrack || anchor.href === null || !isTrackableLink(anchor.href)) return null;
  return anchor.href.trim();
}

/**
 * The links of `html` that click tracking would rewrite, in order (a link written twice is listed twice). Reading
 * stops once more than `limit` are found.
 */
export function trackedLinks(html: string, limit = Number.POSITIVE_INFINITY): string[] {
  const links: string[] = [];
  forEachAnchor(html, (anchor) => {
    const href = trackedHref(anchor);
    if (href !== null) links.push(href);
    return links.length <= limit;
  });
  return links;
}

/**
 * Every trackable `<a href>` becomes `trackedUrl(original)`: its first href is replaced and any repeated href dropped
 * (mail clients disagree on which one wins); everything else is kept byte for byte. Links inside the service's own
 * footer carry data-no-track and are left alone, as is any link the sender marked with it.
 */
export function rewriteLinks(html: string, trackedUrl: (original: string) => string): string {
  const pieces: string[] = [];
  let copied = 0;
  forEachAnchor(html, (anchor) => {
    const href = trackedHref(anchor);
    if (href === null) return;
    anchor.hrefRanges.forEach(([from, to], i) => {
      pieces.push(html.slice(copied, from));
      if (i === 0) pieces.push(`href="${escapeAttribute(trackedUrl(href))}"`);
      copied = to;
    });
  });
  pieces.push(html.slice(copied));
  return pieces.join("");
}

/** Adds `fragment` just before `</body>`, or at the end when the HTML has no body element. */
export function appendToBody(html: string, fragment: string): string {
  const close = html.search(/<\/body\s*>/i);
  return close === -1 ? html + fragment : html.slice(0, close) + fragment + html.slice(close);
}

export function openPixel(pixelUrl: string): string {
  return `<img src="${escapeAttribute(pixelUrl)}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px" />`;
}

export function unsubscribeFooterHtml(unsubscribeUrl: string): string {
  return (
    `<p style="font-size:12px;color:#666;margin-top:24px">You receive this because you subscribed. ` +
    `<a href="${escapeAttribute(unsubscribeUrl)}" data-no-track>Unsubscribe</a></p>`
  );
}

export function unsubscribeFooterText(unsubscribeUrl: string): string {
  return `\n\n--\nYou receive this because you subscribed. Unsubscribe: ${unsubscribeUrl}\n`;
}

/**
 * Opens that no person made: privacy proxies and security scanners fetch every image as the mail arrives.
 * Gmail's proxy fetches when the reader opens the message, so its opens count as human.
 */
const MACHINE_AGENTS: [RegExp, string][] = [
  [/^Mozilla\/5\.0$/, "apple_mail_privacy_protection"],
  [/YahooMailProxy/i, "yahoo_mail_proxy"],
  [/Mimecast/i, "mimecast"],
  [/Barracuda/i, "barracuda"],
  [/Proofpoint/i, "proofpoint"],
  [/\bbot\b|crawler|spider|curl\/|python-requests|Go-http-client|HeadlessChrome/i, "automated_client"],
];

/** The name of the machine that made this request, or null when it looks like a person's mail client. */
export function machineAgent(userAgent: string | undefined): string | null {
  if (!userAgent) return "no_user_agent";
  for (const [pattern, name] of MACHINE_AGENTS) if (pattern.test(userAgent)) return name;
  return null;
}
