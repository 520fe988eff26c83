/** Which requests a page being rendered may make; pure rules, applied by the browser's request interception. */
export interface RequestPolicy {
  /**
   * "document": HTML and Markdown input; nothing leaves the machine except to the allowed origins.
   * "web": a page fetched from a URL; every request (document, redirect, sub-resource) passes the outbound guard.
   */
  mode: "document" | "web";
  allowedOrigins: readonly string[];
}

const LOCAL_SCHEMES = new Set(["data:", "blob:", "about:"]);

/** "https://CDN.example.com:443/x" -> "https://cdn.example.com"; the form allowed_origins are compared in. */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
    return parsed.origin;
  } catch {
    return null;
  }
}

/** Local URLs load in the browser; http(s) ones are fetched by us through the guard; everything else is refused. */
export function decide(url: string, policy: RequestPolicy): { action: "local" } | { action: "fetch" } | { action: "refuse"; reason: string } {
  const scheme = url.slice(0, url.indexOf(":") + 1).toLowerCase();
  if (LOCAL_SCHEMES.has(scheme)) return { action: "local" };
  const origin = originOf(url);
  if (origin === null) return { action: "refuse", reason: `the ${scheme || "unknown"} scheme is not allowed` };
  if (policy.mode === "document" && !policy.allowedOrigins.includes(origin)) {
    return { action: "refuse", reason: `${origin} is not in allowed_origins` };
  }
  return { action: "fetch" };
}
