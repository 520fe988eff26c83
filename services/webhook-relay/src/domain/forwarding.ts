import type { HeaderEntry } from "./captured-request.js";
import { WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from "@apiplat/webhook-delivery";

/** RFC 9110 section 7.6.1 connection-specific headers (every Proxy-* header goes too, see isHopByHop). */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade"]);

/** Set again for the destination: its own Host and the length of the body actually sent. */
const RECOMPUTED = new Set(["host", "content-length"]);

/**
 * Headers that speak for a proxy about the client (Forwarded, X-Forwarded-*, X-Real-IP). Whatever a
 * sender wrote there is forged as far as the destination is concerned: forwarded as captured, they
 * would let any account pose as an allowed address to a destination that trusts our address as a proxy.
 */
function isProxyClaim(name: string): boolean {
  return name === "forwarded" || name === "x-real-ip" || name.startsWith("x-forwarded-");
}

function isHopByHop(name: string): boolean {
  return HOP_BY_HOP.has(name) || name.startsWith("proxy-");
}

/** Ours replace any the sender sent, so that the destination sees exactly one valid signature set. */
const SIGNATURE_HEADERS = new Set([WEBHOOK_ID_HEADER, WEBHOOK_TIMESTAMP_HEADER, WEBHOOK_SIGNATURE_HEADER]);

interface ForwardHeaderOptions {
  /** The inbox's own Basic credentials are for us, not for the destination. */
  dropAuthorization: boolean;
}

/**
 * The captured headers that may go on to a destination (forwarding and replay): no hop-by-hop header
 * (nor any named in Connection), no proxy claim about the client, no Host or Content-Length.
 */
export function forwardableHeaders(headers: readonly HeaderEntry[], options: ForwardHeaderOptions): HeaderEntry[] {
  const namedInConnection = new Set(
    headers
      .filter((h) => h.name.toLowerCase() === "connection")
      .flatMap((h) => h.value.split(",").map((token) => token.trim().toLowerCase()))
      .filter(Boolean),
  );
  return headers.filter((h) => {
    const name = h.name.toLowerCase();
    if (isHopByHop(name) || isProxyClaim(name) || RECOMPUTED.has(name) || SIGNATURE_HEADERS.has(name)) return false;
    if (namedInConnection.has(name)) return false;
    if (options.dropAuthorization && name === "authorization") return false;
    return true;
  });
}

/**
 * The destination plus the captured sub-path and query: destination "https://x.test/in?k=1", capture
 * "/github/push" with "a=2" -> "https://x.test/in/github/push?k=1&a=2". A bare "/" sub-path adds nothing.
 */
export function destinationUrl(base: string, path: string, queryString: string): string {
  const url = new URL(base);
  if (path !== "/" && path !== "") url.pathname = url.pathname.replace(/(?<!\/)\/+$/, "") + path;
  if (queryString !== "") url.search = url.search === "" ? `?${queryString}` : `${url.search}&${queryString}`;
  return url.toString();
}

/**
 * Header entries as the fetch takes them: names lower-cased (HTTP names are case-insensitive, and one
 * spelling per name keeps a default such as user-agent from being sent twice); a name sent several
 * times stays several header lines, in order.
 */
export function headersForFetch(headers: readonly HeaderEntry[]): Record<string, string | string[]> {
  const merged: Record<string, string | string[]> = {};
  for (const { name, value } of headers) {
    const key = name.toLowerCase();
    const existing = merged[key];
    if (existing === undefined) merged[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else merged[key] = [existing, value];
  }
  return merged;
}
