/** The referring site's host name (lower-case, without "www."), or null for direct visits and unparsable headers. */
export function referrerDomain(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    const url = new URL(referer);
    if (url.protocol !== "http:" && url.protocol !== "https:" && url.protocol !== "android-app:") return null;
    const host = url.hostname.toLowerCase().replace(/\.$/, "");
    if (host === "") return null;
    return host.startsWith("www.") ? host.slice(4) : host;
  } catch {
    return null;
  }
}
