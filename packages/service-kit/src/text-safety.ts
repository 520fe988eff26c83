import { ApiError } from "@apiplat/errors";

/** A NUL, or a UTF-16 surrogate that is not half of a pair: text no database column, URL or mail header can hold. */
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

function unsafeIssue(text: string): string | null {
  if (!SUSPECT.test(text)) return null;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return "must not contain a NUL character (\\u0000)";
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return "must not contain a lone UTF-16 surrogate (text that is not valid Unicode)";
    }
    if (code >= 0xdc00 && code <= 0xdfff) return "must not contain a lone UTF-16 surrogate (text that is not valid Unicode)";
  }
  return null;
}

/** `files[0]`, `headers.x-token`: the style every error names an array item or a nested field in. */
function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/**
 * How deep objects and arrays may nest in a request. JSON.parse takes any depth, but walking a value (this check,
 * JSON.stringify, a route's own code) recurses once per level, and no request of any service needs more than a few.
 */
export const MAX_NESTING = 64;

/**
 * The first string (or object key) in a parsed value that holds a NUL or a lone surrogate, or the first object or
 * array nested deeper than MAX_NESTING, with its field name.
 */
export function findUnsafeText(value: unknown, path: string, depth = 0): { field: string; issue: string } | null {
  if (typeof value === "string") {
    const issue = unsafeIssue(value);
    return issue ? { field: path, issue } : null;
  }
  if (value === null || typeof value !== "object" || Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return null;
  if (depth > MAX_NESTING) return { field: path, issue: `is nested more than ${MAX_NESTING} levels deep (objects and arrays within each other)` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], join(path, i), depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyIssue = unsafeIssue(key);
    if (keyIssue) return { field: path || "body", issue: "must not have a field name with a NUL character or a lone UTF-16 surrogate" };
    const found = findUnsafeText(item, join(path, key), depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Every text a request carries (path parameters, query, JSON body) is refused with a 400 naming the field when it holds
 * a NUL or a lone surrogate, before any route sees it. Binary content (a captured webhook body, an upload) arrives as
 * bytes, not text, and is not inspected.
 */
export function assertSafeText(parts: { params?: unknown; query?: unknown; body?: unknown }): void {
  const found = findUnsafeText(parts.params, "") ?? findUnsafeText(parts.query, "") ?? findUnsafeText(parts.body, "");
  if (found) {
    // A wildcard route's parameter is named "*": to the caller it is the path.
    const field = found.field === "*" ? "path" : found.field || "body";
    throw new ApiError(400, "VALIDATION_ERROR", `${field} ${found.issue}.`, [{ field, issue: found.issue }]);
  }
}

/** The first number in a validated value that is not finite (1e309 in JSON, "Infinity" in a query), with its field. */
function findNonFinite(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === "number") return Number.isFinite(value) ? null : path;
  if (value === null || typeof value !== "object" || depth > MAX_NESTING || Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return null;
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
  for (const [key, item] of entries) {
    const found = findNonFinite(item, join(path, key), depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * After validation: a number that passed its schema but is not finite (JSON Schema's integer and number admit
 * Infinity) is refused with a 400 naming the field, before a route does arithmetic or SQL with it.
 */
export function assertFiniteNumbers(parts: { params?: unknown; query?: unknown; body?: unknown }): void {
  const field = findNonFinite(parts.params, "") ?? findNonFinite(parts.query, "") ?? findNonFinite(parts.body, "");
  if (field !== null) {
    const name = field || "body";
    throw new ApiError(400, "VALIDATION_ERROR", `${name} must be a finite number.`, [{ field: name, issue: "must be a finite number" }]);
  }
}
