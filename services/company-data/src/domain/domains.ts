/**
 * Website domains as Clearbit's lookup takes them: whatever the caller pastes (a URL with a scheme, "www.", a port, a
 * path or a query) comes down to its host name, lower case, without "www." and without a trailing dot.
 */

export class InvalidDomain extends Error {}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** The host name of a domain or URL; throws InvalidDomain with a reason a person can act on. */
export function normalizeDomain(input: string): string {
  const text = input.trim();
  if (text === "") throw new InvalidDomain("must be a domain name such as apple.com");
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let host: string;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new InvalidDomain("must be a domain name or an http(s) URL");
    if (url.username || url.password) throw new InvalidDomain("must be a domain name, without user name or password");
    host = url.hostname;
  } catch (error) {
    if (error instanceof InvalidDomain) throw error;
    throw new InvalidDomain("must be a domain name such as apple.com");
  }
  host = host.replace(/\.$/, "").replace(/^www\d*\./, "");
  if (host.startsWith("[") || /^\d+(?:\.\d+){3}$/.test(host)) throw new InvalidDomain("must be a domain name, not an IP address");
  if (host.length > 253) throw new InvalidDomain("must be at most 253 characters long");
  const labels = host.split(".");
  if (labels.length < 2) throw new InvalidDomain("must have a dot and a top-level domain, such as apple.com");
  if (!labels.every((label) => LABEL.test(label)) || !TOP_LEVEL.test(labels.at(-1)!)) {
    throw new InvalidDomain("must be a domain name: labels of letters, digits and hyphens separated by dots, such as apple.com");
  }
  return host;
}

/** The domain of a website as a source gives it, or null when it is not one. */
export function domainOfWebsite(website: string | null | undefined): string | null {
  if (!website) return null;
  try {
    return normalizeDomain(website);
  } catch {
    return null;
  }
}

/** The domain and its parents down to two labels: "investor.apple.com" -> ["investor.apple.com", "apple.com"]. */
export function domainCandidates(domain: string): string[] {
  const labels = domain.split(".");
  const candidates: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) candidates.push(labels.slice(i).join("."));
  return candidates;
}
