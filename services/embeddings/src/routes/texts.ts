/** Checks a request's texts, or throws the 400/413 that names the text and the bound. */
import { errors, type ErrorDetail } from "@apiplat/service-kit";
import { checkText, MAX_TEXTS } from "../domain/texts.js";

/** A list of texts holds 1 to MAX_TEXTS items. */
export function acceptCount(count: number, field: string): void {
  if (count === 0) throw errors.validation(field, "must hold at least one text");
  if (count > MAX_TEXTS) throw errors.payloadTooLarge(field, `has ${count} texts; at most ${MAX_TEXTS} per request`);
}

/** Every text is non-blank, well-formed Unicode and not over the length bound. */
export function acceptEach(texts: readonly string[], fields: readonly string[]): void {
  const invalid: ErrorDetail[] = [];
  for (let i = 0; i < texts.length; i++) {
    const problem = checkText(texts[i], fields[i]);
    if (problem?.kind === "too_large") throw errors.payloadTooLarge(problem.detail.field, problem.detail.issue);
    if (problem) invalid.push(problem.detail);
  }
  if (invalid.length > 0) throw errors.validationMany(invalid.slice(0, 10));
}
