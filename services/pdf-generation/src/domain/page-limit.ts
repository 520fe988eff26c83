import { RenderError } from "./errors.js";
import { MERGE_BYTE_LIMITS, MERGE_PAGE_LIMITS, PAGE_LIMITS, type Plan } from "./limits.js";
import { nextPlanWithMore } from "./plan-advice.js";

export function pageLimitFor(plan: Plan): number {
  return PAGE_LIMITS[plan];
}

export function mergePageLimitFor(plan: Plan): number {
  return MERGE_PAGE_LIMITS[plan];
}

export function mergeByteLimitFor(plan: Plan): number {
  return MERGE_BYTE_LIMITS[plan];
}

/** A result longer than the plan allows is refused whole: a truncated document would be silently wrong. */
export function assertWithinPageLimit(pageCount: number, plan: Plan): void {
  const limit = pageLimitFor(plan);
  if (pageCount <= limit) return;
  const next = nextPlanWithMore(PAGE_LIMITS, plan);
  throw new RenderError(
    "page_limit",
    `The PDF has ${pageCount} pages; the ${plan} plan allows at most ${limit} pages per document. ` +
      `Render it in parts of at most ${limit} pages and join them with /merge (up to ${mergePageLimitFor(plan)} pages on this plan)` +
      (next ? `, or move to ${next} (${PAGE_LIMITS[next]} pages per document).` : "."),
    "page_count",
    `is ${pageCount}, above the ${plan} plan limit of ${limit}`,
  );
}

/** A merge whose result would pass the plan's merge bound is refused before any page is copied. */
export function assertWithinMergePageLimit(pageCount: number, plan: Plan): void {
  const limit = mergePageLimitFor(plan);
  if (pageCount <= limit) return;
  const next = nextPlanWithMore(MERGE_PAGE_LIMITS, plan);
  throw new RenderError(
    "page_limit",
    `The merged PDF would have ${pageCount} pages; the ${plan} plan merges at most ${limit} pages per request. ` +
      (next
        ? `Merge fewer files per request, or move to ${next} (${MERGE_PAGE_LIMITS[next]} pages per merge).`
        : `No plan merges more: keep a document this long in parts of at most ${limit} pages.`),
    "page_count",
    `is ${pageCount}, above the ${plan} plan's merge limit of ${limit}`,
  );
}

/** What the 413 of a merge past its byte bound says. */
export function mergeBytesAdvice(plan: Plan): { issue: string; message: string } {
  const limit = mergeByteLimitFor(plan);
  const next = nextPlanWithMore(MERGE_BYTE_LIMITS, plan);
  const issue = `must total at most ${limit} bytes of PDF on the ${plan} plan`;
  const advice = next
    ? `Merge fewer or smaller files per request, or move to ${next} (${MERGE_BYTE_LIMITS[next]} bytes per merge).`
    : "No plan merges more: merge fewer or smaller files per request.";
  return { issue, message: `files ${issue}. ${advice}` };
}
