/**
 * Malformed requests derived from an OpenAPI 3.1 document: for each operation, a valid-looking base request and
 * fast-check arbitraries that break one part of it at a time.
 */
import fc from "fast-check";

type Schema = Record<string, any>;

export interface Operation {
  method: string;
  path: string;
  parameters: { name: string; in: "path" | "query" | "header"; required?: boolean; schema?: Schema }[];
  body: Schema | null;
  bodyType: string | null;
}

export interface FuzzRequest {
  method: string;
  url: string;
  contentType?: string;
  /** Raw text: some variants (1e309, truncated JSON) are not what JSON.stringify can write. */
  payload?: string;
  description: string;
}

const PUBLIC_PATHS = new Set(["/health", "/ready", "/metrics", "/openapi.json", "/docs"]);

export function operationsOf(document: Schema): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Schema>(document.paths ?? {})) {
    if (PUBLIC_PATHS.has(path) || path.startsWith("/docs")) continue;
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const op = item[method];
      if (!op) continue;
      const content = op.requestBody?.content ?? {};
      const bodyType = content["application/json"] ? "application/json" : (Object.keys(content)[0] ?? null);
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])],
        body: bodyType ? resolve(document, content[bodyType].schema ?? {}) : null,
        bodyType,
      });
    }
  }
  return operations;
}

function resolve(document: Schema, schema: Schema): Schema {
  if (schema?.$ref) {
    const target = schema.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce((node: Schema, key: string) => node?.[key], document);
    return resolve(document, target ?? {});
  }
  return schema;
}

/** A value the schema probably accepts: its example or default, else the smallest thing of its type. */
export function plausible(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return "x";
  if (schema.examples?.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const branch = schema.anyOf ?? schema.oneOf;
  if (branch?.length) return plausible(branch[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "integer":
    case "number":
      return schema.minimum ?? schema.exclusiveMinimum ?? 1;
    case "boolean":
      return true;
    case "array":
      return schema.minItems ? [plausible(schema.items, depth + 1)] : [];
    case "object": {
      const value: Record<string, unknown> = {};
      for (const name of schema.required ?? []) value[name] = plausible(schema.properties?.[name], depth + 1);
      return value;
    }
    case "string":
      if (schema.format === "uri") return "https://example.com/";
      if (schema.format === "email") return "someone@example.com";
      if (schema.format === "date-time") return "2026-01-01T00:00:00Z";
      if (schema.format === "date") return "2026-01-01";
      return "x".repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return "x";
  }
}

const HUGE = "y".repeat(100_000);
/** Raw JSON text standing for a value JSON.stringify cannot write. */
const RAW = { overflow: "1e309", negativeOverflow: "-1e309" };

const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    0,
    -1,
    -0,
    2 ** 53 + 1,
    1.5,
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udfff",
    HUGE,
    [],
    [[[[]]]],
    {},
    { nested: { deeper: [1, "2", null] } },
    "../../etc/passwd",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "%00",
    "NaN",
    "Infinity",
    "1e309",
    "2026-13-45",
    "http://0.0.0.0/",
    "😀".repeat(1000),
    RAW,
  ),
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.oneof(fc.integer(), fc.string(), fc.constant(null)), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), { maxKeys: 4 }),
);

const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    "%00",
    "%ZZ",
    "%ED%A0%80",
    "NaN",
    "Infinity",
    "-1",
    "1e309",
    "9".repeat(400),
    "a".repeat(5000),
    "[]",
    "{}",
    "true",
    "null",
    "%2e%2e%2f",
    "0x10",
    "1,2,3",
  ),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
);

/** Writes a body with the RAW stand-ins replaced by their literal JSON text. */
function writeJson(value: unknown): string {
  const marker = "\u0001RAW\u0001";
  const text = JSON.stringify(value, (_key, v) => (v === RAW ? marker : v));
  return text === undefined ? "" : text.replaceAll(`"${marker}"`, RAW.overflow);
}

function buildUrl(op: Operation, pathValues: Record<string, string>, query: Record<string, string>): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => pathValues[name] ?? "x");
  const search = Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${v}`)
    .join("&");
  return search ? `${path}?${search}` : path;
}

/** A plausible value for each path parameter and each required query parameter of `op`, encoded. */
function plausibleParameters(op: Operation): { pathValues: Record<string, string>; query: Record<string, string> } {
  const pathValues: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const p of op.parameters) {
    const value = encodeURIComponent(String(plausible(p.schema)));
    if (p.in === "path") pathValues[p.name] = value;
    if (p.in === "query" && p.required) query[p.name] = value;
  }
  return { pathValues, query };
}

/** Every way this suite breaks an operation's request, one part at a time. */
export function variantsOf(op: Operation): fc.Arbitrary<FuzzRequest> {
  const { pathValues, query } = plausibleParameters(op);
  const baseBody = op.body ? (plausible(op.body) as Record<string, unknown>) : undefined;
  const bodyFields = op.body?.properties ? Object.keys(op.body.properties) : [];
  const json = (body: unknown, description: string, contentType = "application/json"): FuzzRequest => ({
    method: op.method,
    url: buildUrl(op, pathValues, query),
    contentType,
    payload: writeJson(body),
    description,
  });
  const arbitraries: fc.Arbitrary<FuzzRequest>[] = [];

  const pathNames = op.parameters.filter((p) => p.in === "path").map((p) => p.name);
  if (pathNames.length) {
    arbitraries.push(
      fc.tuple(fc.constantFrom(...pathNames), hostileText).map(([name, value]) => ({
        method: op.method,
        url: buildUrl(op, { ...pathValues, [name]: value || "%20" }, query),
        ...(baseBody !== undefined ? { contentType: "application/json", payload: writeJson(baseBody) } : {}),
        description: `path ${name}=${value.slice(0, 60)}`,
      })),
    );
  }
  const queryNames = op.parameters.filter((p) => p.in === "query").map((p) => p.name);
  if (queryNames.length) {
    arbitraries.push(
      fc.tuple(fc.constantFrom(...queryNames), hostileText, fc.boolean()).map(([name, value, twice]) => ({
        method: op.method,
        url: buildUrl(op, pathValues, query) + (Object.keys(query).length ? "&" : "?") + `${name}=${value}` + (twice ? `&${name}=${value}` : ""),
        description: `query ${name}=${value.slice(0, 60)}${twice ? " (twice)" : ""}`,
      })),
    );
  }
  if (op.body && op.bodyType === "application/json") {
    if (bodyFields.length) {
      arbitraries.push(
        fc
          .tuple(fc.constantFrom(...bodyFields), hostileJson)
          .map(([field, value]) => json({ ...baseBody, [field]: value }, `body.${field}=${describe(value)}`)),
      );
      arbitraries.push(
        fc.constantFrom(...bodyFields).map((field) => {
          const { [field]: _dropped, ...rest } = baseBody ?? {};
          return json(rest, `body without ${field}`);
        }),
      );
    }
    arbitraries.push(
      fc
        .constantFrom<[unknown, string]>(
          [[baseBody], "body as an array"],
          ["text", "body as a string"],
          [42, "body as a number"],
          [null, "body null"],
          [{ ...baseBody, unexpected_field: "x" }, "an extra field"],
          [{ ...baseBody, __proto__x: { polluted: true }, constructor: { prototype: { polluted: true } } }, "prototype keys"],
        )
        .map(([body, description]) => json(body, description)),
    );
    arbitraries.push(
      fc
        .constantFrom(
          { contentType: "text/plain", payload: "hello", description: "a text/plain body" },
          { contentType: "application/xml", payload: "<a>1</a>", description: "an XML body" },
          { contentType: "application/x-www-form-urlencoded", payload: "a=1&b=2", description: "a form body" },
          { contentType: "application/json", payload: '{"truncated": ', description: "truncated JSON" },
          { contentType: "application/json", payload: "", description: "an empty JSON body" },
          { contentType: "application/json; charset=latin1", payload: writeJson(baseBody), description: "an odd charset" },
          { contentType: "multipart/form-data; boundary=x", payload: "--x\r\nnot really\r\n", description: "broken multipart" },
        )
        .map((variant) => ({ method: op.method, url: buildUrl(op, pathValues, query), ...variant })),
    );
  }
  arbitraries.push(
    fc
      .constantFrom(
        { suffix: `/${"z".repeat(2_000)}`, description: "an over-long path" },
        { suffix: "/%ZZ", description: "a malformed escape in the path" },
        { suffix: "%00", description: "a NUL at the end of the path" },
      )
      .map(({ suffix, description }) => ({ method: op.method, url: buildUrl(op, pathValues, {}) + suffix, description })),
  );
  return fc.oneof(...arbitraries);
}

function describe(value: unknown): string {
  if (value === RAW) return "1e309";
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Hostile text queries for an operation with a `q` query parameter (a catalogue's full-text search): floods of one-
 * and two-letter prefixes, dozens of excluded prefixes and words, runs of minus signs, and websearch and tsquery
 * operators in any order, cut to the longest q the schema takes. Null when the operation has no `q`.
 */
export function searchQueriesOf(op: Operation): fc.Arbitrary<FuzzRequest> | null {
  const q = op.parameters.find((p) => p.in === "query" && p.name === "q");
  if (!q || q.schema?.type !== "string") return null;
  const maxLength: number = q.schema.maxLength ?? 500;
  const pathValues: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const p of op.parameters) {
    const value = encodeURIComponent(String(plausible(p.schema)));
    if (p.in === "path") pathValues[p.name] = value;
    if (p.in === "query" && p.required && p.name !== "q") query[p.name] = value;
  }
  const letters = fc.string({ unit: fc.constantFrom(..."etaoinshrdlcu"), minLength: 1, maxLength: 2 });
  const token = fc.oneof(
    letters.map((l) => `${l}*`),
    fc.nat(64).map((i) => `-w${i}*`),
    fc.nat(64).map((i) => `-w${i}`),
    fc.nat(40).map((n) => "-".repeat(n + 1)),
    fc.constantFrom("the", "news", "OR", '"', "(", ")", "!", "&", "|", ":*", "<->", "-(", "- ", "--", "*", "well-known", "'"),
  );
  const text = fc.oneof(
    fc.array(token, { minLength: 1, maxLength: 200 }).map((tokens) => tokens.join(" ")),
    fc.array(token, { minLength: 1, maxLength: 200 }).map((tokens) => tokens.join("")),
    fc.integer({ min: 1, max: 64 }).map((n) => ["the", ...Array.from({ length: n }, (_, i) => `-w${i}*`)].join(" ")),
  );
  return text
    .map((value) => value.slice(0, maxLength).trim() || "news")
    .map((value) => ({
      method: op.method,
      url: buildUrl(op, pathValues, query) + (Object.keys(query).length ? "&" : "?") + `q=${encodeURIComponent(value)}`,
      description: `q=${value.slice(0, 80)}`,
    }));
}

/** Template sections nested `depth` deep: exponential for a renderer without a budget, a stack overflow for a recursive parser. */
const nestedTemplate = (depth: number) => `${"{{#a}}".repeat(depth)}{{a}}${"{{/a}}".repeat(depth)}`;

/** Repeats `piece` as often as a field of `maxLength` characters takes, at most `times`. */
const filling = (piece: string, times: number, maxLength: number) => piece.repeat(Math.max(1, Math.min(times, Math.floor(maxLength / piece.length))));

/**
 * The adversarial text every string field is sent once each: nested template syntax, the HTML that stalled a link
 * rewriter (as long as the field takes), and the nesting that overflows a recursive Markdown or bracket parser.
 */
export const ADVERSARIAL_TEXT: { name: string; value(maxLength: number): string }[] = [
  { name: "template sections nested 24 deep", value: () => nestedTemplate(24) },
  { name: "template sections nested 3,000 deep", value: () => nestedTemplate(3000) },
  { name: "'<a ' repeated to the field's length (at most 80,000)", value: (max) => filling("<a ", 80_000, max) },
  { name: "block quotes nested 5,000 deep", value: (max) => `${filling(">", 5_000, max - 1)}x` },
  { name: "brackets nested 5,000 deep", value: (max) => `${filling("[", 5_000, max / 2)}${filling("]", 5_000, max / 2)}` },
];

/** Text queries at every search field besides the generated ones: a prefix flood as long as the field, 40 OR-ed operands, 33 excluded prefixes. */
export const ADVERSARIAL_QUERIES: { name: string; value(maxLength: number): string }[] = [
  { name: "a flood of one- and two-letter prefixes", value: (max) => filling("th* a* i* c* s* ", 1_000, max).trim() },
  { name: "40 OR-ed operands", value: () => Array.from({ length: 40 }, (_, i) => `w${i}`).join(" OR ") },
  { name: "33 excluded prefixes", value: () => ["the", ...Array.from({ length: 33 }, (_, i) => `-w${i}*`)].join(" ") },
];

/** Values only a JSON body can carry: arrays nested past the 64 levels every service refuses. */
export const ADVERSARIAL_JSON: { name: string; value(maxLength: number): unknown }[] = [
  { name: "arrays nested 1,000 deep", value: () => JSON.parse(`${"[".repeat(1_000)}${"]".repeat(1_000)}`) },
];

/** A query parameter or body field that holds search text (a catalogue's `q`, a name or address matched, a rerank query). */
const SEARCH_FIELD = /^(?:q|query|name|address|city|topic)$/;

function isText(schema: Schema | undefined): boolean {
  if (!schema) return false;
  if (schema.type === "string" || (Array.isArray(schema.type) && schema.type.includes("string"))) return !schema.enum && !schema.const && !schema.format;
  return (schema.anyOf ?? schema.oneOf ?? []).some(isText);
}

/** The longest text the field takes (Infinity when its schema sets no maximum). */
function maxLengthOf(schema: Schema): number {
  const text = schema.type === "string" ? schema : (schema.anyOf ?? schema.oneOf ?? []).find(isText);
  return text?.maxLength ?? Infinity;
}

/** One adversarial text for one operation: the fields it goes in, and the request that puts it in some of them. */
export interface AdversarialCase {
  shape: string;
  /** Every service must refuse it (4xx), whatever field it is in. */
  refused: boolean;
  fields: string[];
  request(fields: string[]): FuzzRequest;
}

/**
 * For each adversarial text, the free-text fields of `op` it goes in (query parameters and JSON body properties;
 * the search texts only in search fields).
 */
export function adversarialCasesOf(op: Operation): AdversarialCase[] {
  const { pathValues, query } = plausibleParameters(op);
  const queryFields = op.parameters.filter((p) => p.in === "query" && isText(p.schema)).map((p) => ({ name: p.name, max: maxLengthOf(p.schema!) }));
  const bodyFields =
    op.body && op.bodyType === "application/json"
      ? Object.entries<Schema>(op.body.properties ?? {})
          .filter(([, schema]) => isText(schema))
          .map(([name, schema]) => ({ name, max: maxLengthOf(schema) }))
      : [];
  const everyBodyField =
    op.body && op.bodyType === "application/json" ? Object.keys(op.body.properties ?? {}).map((name) => ({ name, max: Number.POSITIVE_INFINITY })) : [];
  const baseBody = op.body && op.bodyType === "application/json" ? (plausible(op.body) as Record<string, unknown>) : undefined;
  const cases: AdversarialCase[] = [];
  const groups = [
    { shapes: ADVERSARIAL_TEXT, inQuery: queryFields, inBody: bodyFields },
    {
      shapes: ADVERSARIAL_QUERIES,
      inQuery: queryFields.filter((f) => SEARCH_FIELD.test(f.name)),
      inBody: bodyFields.filter((f) => SEARCH_FIELD.test(f.name)),
    },
    { shapes: ADVERSARIAL_JSON, inQuery: [], inBody: everyBodyField, refused: true },
  ];
  for (const { shapes, inQuery, inBody, refused = false } of groups) {
    if (inQuery.length + inBody.length === 0) continue;
    for (const shape of shapes) {
      const valuesFor = (fields: typeof inQuery, chosen: string[]) =>
        Object.fromEntries(fields.filter((f) => chosen.includes(f.name)).map((f) => [f.name, shape.value(f.max)]));
      cases.push({
        shape: shape.name,
        refused,
        fields: [...inQuery, ...inBody].map((f) => f.name),
        request: (chosen) => ({
          method: op.method,
          url: buildUrl(op, pathValues, {
            ...query,
            ...Object.fromEntries(Object.entries(valuesFor(inQuery, chosen)).map(([k, v]) => [k, encodeURIComponent(String(v))])),
          }),
          ...(baseBody ? { contentType: "application/json", payload: JSON.stringify({ ...baseBody, ...valuesFor(inBody, chosen) }) } : {}),
          description: `${shape.name} in ${chosen.join(", ")}`,
        }),
      });
    }
  }
  return cases;
}
