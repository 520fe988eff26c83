import { RenderError } from "./errors.js";
import { PAGE_LIMITS, type Plan } from "./limits.js";

export function pageLimitFor(plan: Plan): number {
  return PAGE_LIMITS[plan];
}

/** A result longer than the plan allows is refused whole: a truncated document would be silently wrong. */
export function assertWithinPageLimit(pageCount: number, plan: Plan): void {
  const limit = pageLimitFor(plan);
  if (pageCount > limit) {
    throw new RenderError(
      "page_limit",
      `The PDF has ${pageCount} pages; the ${plan} plan allows at most ${limit} pages per document. Split the document, or merge parts with /merge on a plan with a higher limit.`,
      "page_count",
      `is ${pageCount}, above the ${plan} plan limit of ${limit}`,
    );
  }
}
