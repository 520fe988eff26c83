/** A header as the sender wrote it: original case, order kept, repeated names kept as separate entries. */
export interface HeaderEntry {
  name: string;
  value: string;
}

type BodyEncoding = "text" | "base64";

type QueryValues = Record<string, string | string[]>;

/** Node's rawHeaders is a flat [name, value, name, value, ...] list. */
export function headerEntries(rawHeaders: readonly string[]): HeaderEntry[] {
  const entries: HeaderEntry[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) entries.push({ name: rawHeaders[i], value: rawHeaders[i + 1] });
  return entries;
}

export function headerValue(headers: readonly HeaderEntry[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find((h) => h.name.toLowerCase() === lower)?.value;
}

/** "a=1&a=2&b=" -> { a: ["1", "2"], b: "" }: a repeated key becomes a list in order of appearance. */
export function parseQueryString(raw: string): QueryValues {
  const values: QueryValues = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const existing = values[key];
    if (existing === undefined) values[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else values[key] = [existing, value];
  }
  return values;
}

interface HookTarget {
  /** The sub-path after the inbox id, always starting with "/" ("/" when there is none). */
  path: string;
  /** The query string without its "?", exactly as sent. */
  queryString: string;
}

/**
 * Splits a request URL such as "/h/<id>/github/push?x=1" into the sub-path under the inbox and the raw
 * query. `prefix` is the hook route prefix followed by the inbox id ("/h/<id>").
 */
export function hookTarget(url: string, prefix: string): HookTarget {
  const question = url.indexOf("?");
  const pathPart = question < 0 ? url : url.slice(0, question);
  const queryString = question < 0 ? "" : url.slice(question + 1);
  const rest = pathPart.startsWith(prefix) ? pathPart.slice(prefix.length) : pathPart;
  return { path: rest.startsWith("/") ? rest : `/${rest}`, queryString };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Text when the bytes are valid UTF-8 without a NUL byte (NUL never occurs in text a person reads but
 * is common in binary formats); otherwise base64. Either way the stored bytes are the exact ones sent.
 */
export function bodyEncoding(body: Uint8Array): BodyEncoding {
  if (body.includes(0)) return "base64";
  try {
    utf8.decode(body);
    return "text";
  } catch {
    return "base64";
  }
}

export function renderBody(body: Uint8Array): { body: string; body_encoding: BodyEncoding } {
  const encoding = bodyEncoding(body);
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return { body: encoding === "text" ? buffer.toString("utf8") : buffer.toString("base64"), body_encoding: encoding };
}

/** What a capture counts against its owner's storage quota: the body, path, query and every header. */
export function storedBytes(capture: { path: string; queryString: string; headers: readonly HeaderEntry[]; body: Uint8Array }): number {
  let total = capture.body.length + Buffer.byteLength(capture.path) + Buffer.byteLength(capture.queryString);
  for (const { name, value } of capture.headers) total += Buffer.byteLength(name) + Buffer.byteLength(value);
  return total;
}
