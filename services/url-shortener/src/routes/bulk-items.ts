import { Compile } from "typebox/compile";
import { errors, type ApiError, type ErrorDetail } from "@apiplat/service-kit";
import { LinkInputSchema } from "../schemas.js";
import type { LinkInput } from "../app/link-service.js";

const linkInput = Compile(LinkInputSchema);

/** Validates one /bulk item on its own, so that a bad item fails alone: a URL string or a /shorten body. */
export function parseBulkItem(item: unknown): LinkInput | ApiError {
  if (typeof item === "string") {
    if (item.length === 0) return errors.validation("url", "must not be empty");
    if (item.length > 2048) return errors.validation("url", "must be at most 2048 characters long");
    return { url: item };
  }
  if (typeof item !== "object" || item === null || Array.isArray(item)) {
    return errors.validation("item", "must be a URL string or an object with the fields of /shorten");
  }
  if (linkInput.Check(item)) return item as LinkInput;
  const details = detailsOf([...linkInput.Errors(item)] as TypeBoxError[]);
  return errors.validationMany(details);
}

interface TypeBoxError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

function detailsOf(errorList: TypeBoxError[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errorList) {
    const detail = detailOf(error);
    if (detail && !details.some((d) => d.field === detail.field)) details.push(detail);
  }
  return details.length > 0 ? details : [{ field: "item", issue: "is not valid" }];
}

function detailOf(error: TypeBoxError): ErrorDetail | null {
  const field = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
  const p = error.params;
  switch (error.keyword) {
    case "required":
      return { field: (p.requiredProperties as string[] | undefined)?.[0] ?? field ?? "item", issue: "is required" };
    case "additionalProperties":
      return { field: (p.additionalProperties as string[] | undefined)?.[0] ?? "item", issue: "is not an accepted field" };
    case "boolean":
      return null;
    case "maxLength":
      return { field, issue: `must be at most ${p.limit} characters long` };
    case "minLength":
      return { field, issue: `must be at least ${p.limit} characters long` };
    case "minimum":
      return { field, issue: `must be at least ${p.limit}` };
    case "maximum":
      return { field, issue: `must be at most ${p.limit}` };
    case "pattern":
      return { field, issue: `must match the pattern ${p.pattern}` };
    case "type":
      return { field: field || "item", issue: `must be ${String(p.type)}` };
    case "const":
    case "anyOf":
      return field === "redirect_type" ? { field, issue: "must be one of: 301, 302" } : { field: field || "item", issue: error.message };
    default:
      return { field: field || "item", issue: error.message };
  }
}
