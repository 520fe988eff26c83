import type { ErrorDetail } from "@apiplat/errors";

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  /** The schema holding the failed keyword (Ajv's `verbose`): its `errorMessage` or `description` explain it. */
  parentSchema?: { errorMessage?: unknown; description?: unknown };
}

const PART_NAMES: Record<string, string> = { querystring: "query", params: "path", headers: "header", body: "body" };

/** "/urls/3/alias" -> "urls[3].alias": the one style every error names an array item in. */
function fieldOf(error: AjvError, context: string): string {
  const segments = error.instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const extra = (error.params.missingProperty as string | undefined) ?? (error.params.additionalProperty as string | undefined);
  if (extra !== undefined) segments.push(extra);
  const field = segments.reduce((path, segment) => path + pathSegment(segment, path === ""), "");
  return field || PART_NAMES[context] || context;
}

/** `[3]` for an array item, `.name` for a plain name, `["odd name"]` for any other key (a header named `X;Y`). */
function pathSegment(segment: string, first: boolean): string {
  if (/^\d+$/.test(segment)) return `[${segment}]`;
  if (/^[A-Za-z_$][\w$-]*$/.test(segment)) return first ? segment : `.${segment}`;
  return `[${JSON.stringify(segment)}]`;
}

/** A schema may say in words what its pattern or format means: `errorMessage: "must be YYYY-MM, e.g. 2026-11"`. */
function statedMessage(error: AjvError): string | null {
  const stated = error.parentSchema?.errorMessage;
  return typeof stated === "string" ? stated : null;
}

const plural = (count: unknown, one: string, many: string) => (count === 1 ? one : many.replace("#", String(count)));

function issueOf(error: AjvError): string {
  const p = error.params;
  const stated = statedMessage(error);
  if (stated && (error.keyword === "pattern" || error.keyword === "format")) return stated;
  switch (error.keyword) {
    case "required":
      return "is required";
    case "additionalProperties":
      return "is not an accepted field";
    case "maximum":
      return `must be at most ${p.limit}`;
    case "exclusiveMaximum":
      return `must be less than ${p.limit}`;
    case "minimum":
      return `must be at least ${p.limit}`;
    case "exclusiveMinimum":
      return `must be greater than ${p.limit}`;
    case "maxLength":
      return `must be at most ${p.limit} characters long`;
    case "minLength":
      return p.limit === 1 ? "must not be empty" : `must be at least ${p.limit} characters long`;
    case "maxItems":
      return plural(p.limit, "must have at most one item", "must have at most # items");
    case "minItems":
      return plural(p.limit, "must not be empty: give at least one item", "must have at least # items");
    case "minProperties":
      return plural(p.limit, "must not be empty: give at least one field", "must have at least # fields");
    case "maxProperties":
      return plural(p.limit, "must have at most one field", "must have at most # fields");
    case "uniqueItems":
      return "must not repeat an item";
    case "multipleOf":
      return `must be a multiple of ${p.multipleOf}`;
    case "enum":
      return `must be one of: ${(p.allowedValues as unknown[]).join(", ")}`;
    case "const":
      return `must be ${String(p.allowedValue)}`;
    case "type":
      return `must be ${/^[aeiou]/.test(String(p.type)) ? "an" : "a"} ${String(p.type).replace(/,/g, " or ")}`;
    case "format":
      return FORMAT_ISSUES[String(p.format)] ?? `must be a valid ${p.format}`;
    case "pattern": {
      const description = error.parentSchema?.description;
      return typeof description === "string" ? `is not in the accepted form (${description})` : "is not in the accepted form";
    }
    default:
      return "is not valid";
  }
}

const FORMAT_ISSUES: Record<string, string> = {
  "date-time": "must be a date and time in ISO 8601, e.g. 2026-11-25T14:30:00Z",
  date: "must be a date as YYYY-MM-DD, e.g. 2026-11-25",
  time: "must be a time as HH:MM:SS, e.g. 14:30:00",
  email: "must be an email address, e.g. someone@example.com",
  uri: "must be an absolute URL, e.g. https://example.com/page",
  url: "must be an absolute URL, e.g. https://example.com/page",
  uuid: "must be a UUID, e.g. 123e4567-e89b-12d3-a456-426614174000",
  hostname: "must be a host name, e.g. example.com",
  ipv4: "must be an IPv4 address, e.g. 192.0.2.1",
  ipv6: "must be an IPv6 address, e.g. 2001:db8::1",
};

/**
 * A value that fits none of a union's branches by type (`{"input": 123}` where a text or a list is accepted) fails once
 * per branch: the issue names every accepted type, not only the first branch's. An empty issue means: drop the union's
 * own errors, a branch of the right type failed deeper.
 */
function unionTypeIssues(validation: AjvError[], context: string): Map<string, string> {
  const unions = new Set(validation.filter((e) => e.keyword === "anyOf").map((e) => fieldOf(e, context)));
  const typesOf = new Map<string, string[]>();
  for (const error of validation) {
    const field = fieldOf(error, context);
    if (error.keyword !== "type" || !unions.has(field)) continue;
    typesOf.set(field, [...(typesOf.get(field) ?? []), ...String(error.params.type).split(",")]);
  }
  const issues = new Map<string, string>();
  const fields = validation.map((e) => fieldOf(e, context));
  for (const [field, types] of typesOf) {
    if (fields.some((f) => f.startsWith(`${field}[`) || f.startsWith(`${field}.`))) {
      issues.set(field, "");
      continue;
    }
    const named = [...new Set(types)].map((type) => `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`);
    issues.set(field, `must be ${named.length > 1 ? `${named.slice(0, -1).join(", ")} or ${named.at(-1)}` : named[0]}`);
  }
  return issues;
}

/**
 * Ajv's errors as `{field, issue}` pairs. A union of literals (TypeBox's way of writing an enum) fails
 * with one "const" error per branch: those fold into one "must be one of" issue.
 */
export function validationDetails(validation: AjvError[], context: string): ErrorDetail[] {
  const consts = new Map<string, unknown[]>();
  const types = unionTypeIssues(validation, context);
  const details: ErrorDetail[] = [];
  for (const error of validation) {
    const field = fieldOf(error, context);
    if (error.keyword === "const") {
      consts.set(field, [...(consts.get(field) ?? []), error.params.allowedValue]);
      continue;
    }
    if (error.keyword === "anyOf" && consts.has(field)) continue;
    const union = types.get(field);
    if (union !== undefined && (error.keyword === "type" || error.keyword === "anyOf")) {
      // A branch whose type fits failed further in ("input[1]"): that is the caller's mistake, not the type.
      if (!union) continue;
      details.push({ field, issue: union });
      continue;
    }
    details.push({ field, issue: issueOf(error) });
  }
  for (const [field, allowed] of consts) {
    details.unshift({ field, issue: allowed.length === 1 ? `must be ${String(allowed[0])}` : `must be one of: ${allowed.join(", ")}` });
  }
  const seen = new Set<string>();
  return details.filter((d) => (seen.has(d.field) ? false : (seen.add(d.field), true)));
}
