import { headerValue, type HeaderEntry } from "./captured-request.js";

const ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD";

/** Permissive CORS so that a browser page can send to a hook URL and read the answer. */
export function corsHeaders(requestHeaders: readonly HeaderEntry[]): Record<string, string> {
  const headers: Record<string, string> = {
    "access-control-allow-origin": headerValue(requestHeaders, "origin") ?? "*",
    "access-control-allow-methods": ALLOWED_METHODS,
    "access-control-expose-headers": "*",
    "access-control-max-age": "86400",
  };
  const asked = headerValue(requestHeaders, "access-control-request-headers");
  if (asked) headers["access-control-allow-headers"] = asked;
  if (headers["access-control-allow-origin"] !== "*") {
    headers["access-control-allow-credentials"] = "true";
    headers.vary = "Origin";
  }
  return headers;
}

/** A CORS preflight: OPTIONS naming the method the browser wants to send. */
export function isPreflight(method: string, requestHeaders: readonly HeaderEntry[]): boolean {
  return method === "OPTIONS" && headerValue(requestHeaders, "access-control-request-method") !== undefined;
}
