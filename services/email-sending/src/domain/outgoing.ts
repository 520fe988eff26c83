import type { LinkSigner } from "./links.js";
import { appendToBody, openPixel, rewriteLinks, unsubscribeFooterHtml, unsubscribeFooterText } from "./tracking.js";

/** The body and headers a message leaves with: tracking applied, the unsubscribe link and headers on marketing mail. */

interface OutgoingInput {
  id: string;
  category: "transactional" | "marketing";
  html: string;
  text: string;
  trackOpens: boolean;
  trackClicks: boolean;
  /** The one recipient of a marketing message. */
  marketingRecipient: string | null;
}

interface OutgoingBody {
  html: string;
  text: string;
  headers: Record<string, string>;
}

export function outgoingBody(message: OutgoingInput, links: LinkSigner): OutgoingBody {
  let html = message.html;
  let text = message.text;
  const headers: Record<string, string> = {};
  if (message.trackClicks) html = rewriteLinks(html, (url) => links.clickUrl(message.id, url));
  if (message.category === "marketing" && message.marketingRecipient) {
    const unsubscribe = links.unsubscribeUrl(message.id, message.marketingRecipient);
    html = appendToBody(html, unsubscribeFooterHtml(unsubscribe));
    text += unsubscribeFooterText(unsubscribe);
    headers["List-Unsubscribe"] = `<${unsubscribe}>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  }
  if (message.trackOpens) html = appendToBody(html, openPixel(links.openUrl(message.id)));
  return { html, text, headers };
}
