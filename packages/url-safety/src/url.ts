export const MAX_URL_LENGTH = 2048;

export type NormalizedUrl = { ok: true; url: string; host: string } | { ok: false; issue: string };

/**
 * Normalizes a destination URL the way browsers will read it: scheme and host lower-cased, IDN host in
 * punycode, default port dropped, an empty path made "/", percent-encoding made canonical by the WHATWG
 * parser. Fragments are kept (single-page apps route on them).
 */
export function normalizeUrl(input: string): NormalizedUrl {
  const trimmed = input.trim();
  if (trimmed.length === 0) return { ok: false, issue: "must not be empty" };
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return { ok: false, issue: "must be an absolute http or https URL" };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return { ok: false, issue: "must use the http or https scheme" };
  }
  if (parsed.hostname.length === 0) return { ok: false, issue: "must have a host" };
  if (parsed.username !== "" || parsed.password !== "") {
    return { ok: false, issue: "must not contain credentials (user:password@)" };
  }
  const host = hostOf(parsed);
  if (!host.includes(".") && !isIpLiteral(host)) {
    return { ok: false, issue: "must have a fully qualified host name" };
  }
  const url = parsed.toString();
  if (url.length > MAX_URL_LENGTH) {
    return { ok: false, issue: `must be at most ${MAX_URL_LENGTH} characters once normalized` };
  }
  return { ok: true, url, host };
}

/** Host without IPv6 brackets and without a trailing dot. */
export function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

function isIpLiteral(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(":");
}

/** The host name and all its parent domains: a.b.example -> [a.b.example, b.example, example]. */
export function hostAndParents(host: string): string[] {
  const labels = host.split(".");
  const result: string[] = [];
  for (let i = 0; i < labels.length; i++) result.push(labels.slice(i).join("."));
  return result;
}
