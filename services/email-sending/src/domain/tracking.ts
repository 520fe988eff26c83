/** What the service changes in a message's HTML: tracked links, the open pixel, the unsubscribe footer. */

const ANCHOR_HREF = /(<a\b[^>]*?\bhref\s*=\s*)(["'])(.*?)\2/gis;

function decodeAttribute(value: string): string {
  return value
    .replace(/&amp;/gi, "&")
    .replace(/&quot;/gi, '"')
    .replace(/&#39;|&apos;/gi, "'")
    .replace(/&lt;/gi, "<")
    .replace(/&gt;/gi, ">");
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Only absolute http(s) links are tracked: mailto:, tel:, anchors and relative links are left as written. */
export function isTrackableLink(href: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(href.trim());
}

/**
 * Every trackable `<a href>` becomes `trackedUrl(original)`. Links inside the service's own footer carry
 * data-no-track and are left alone, as is any link the sender marked with it.
 */
export function rewriteLinks(html: string, trackedUrl: (original: string) => string): string {
  return html.replace(ANCHOR_HREF, (match, prefix: string, quote: string, href: string) => {
    if (/\bdata-no-track\b/i.test(prefix)) return match;
    const original = decodeAttribute(href).trim();
    if (!isTrackableLink(original)) return match;
    return `${prefix}${quote}${escapeAttribute(trackedUrl(original))}${quote}`;
  });
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
