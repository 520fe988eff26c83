import type { ErrorDetail } from "@apiplat/errors";

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

const PART_NAMES: Record<string, string> = { querystring: "query", params: "path", headers: "header", body: "body" };

/** "/urls/3/alias" -> "urls.3.alias" */
function fieldOf(error: AjvError, context: string): string {
  const path = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
  const extra =
    (error.params.missingProperty as string | undefined) ?? (error.params.additionalProperty as string | undefined);
  const field = [path, extra].filter(Boolean).join(".");
  return field || PART_NAMES[context] || context;
}

function issueOf(error: AjvError): string {
  const p = error.params;
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
      return `must have at most ${p.limit} items`;
    case "minItems":
      return `must have at least ${p.limit} items`;
    case "enum":
      return `must be one of: ${(p.allowedValues as unknown[]).join(", ")}`;
    case "const":
      return `must be ${String(p.allowedValue)}`;
    case "type":
      return `must be ${/^[aeiou]/.test(String(p.type)) ? "an" : "a"} ${String(p.type).replace(/,/g, " or ")}`;
    case "format":
      return `must be a valid ${p.format}`;
    case "pattern":
      return `must match the pattern ${p.pattern}`;
    default:
      return error.message ?? "is not valid";
  }
}

/**
 * Ajv's errors as `{field, issue}` pairs. A union of literals (TypeBox's way of writing an enum) fails
 * with one "const" error per branch: those fold into one "must be one of" issue.
 */
export function validationDetails(validation: AjvError[], context: string): ErrorDetail[] {
  const consts = new Map<string, unknown[]>();
  const details: ErrorDetail[] = [];
  for (const error of validation) {
    const field = fieldOf(error, context);
    if (error.keyword === "const") {
      consts.set(field, [...(consts.get(field) ?? []), error.params.allowedValue]);
      continue;
    }
    if (error.keyword === "anyOf" && consts.has(field)) continue;
    details.push({ field, issue: issueOf(error) });
  }
  for (const [field, allowed] of consts) {
    details.unshift({ field, issue: allowed.length === 1 ? `must be ${String(allowed[0])}` : `must be one of: ${allowed.join(", ")}` });
  }
  const seen = new Set<string>();
  return details.filter((d) => (seen.has(d.field) ? false : (seen.add(d.field), true)));
}
