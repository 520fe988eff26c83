import { ApiError, errors, isApiError } from "@apiplat/service-kit";
import { isRenderError, type RenderError } from "../domain/errors.js";

/** How each domain failure reads in the shared envelope. `fromUrl`: the failure concerns a page we fetched. */
export function toApiError(error: unknown, fromUrl = false): unknown {
  if (!isRenderError(error)) return error;
  const details = error.field && error.issue ? [{ field: error.field, issue: error.issue }] : undefined;
  switch (error.kind) {
    case "invalid_option":
      return new ApiError(400, "VALIDATION_ERROR", error.message, details);
    case "page_limit":
    case "renderer_crashed":
    case "not_tagged":
    case "invalid_pdf":
    case "merge_too_heavy":
      return errors.unprocessable(error.message, details);
    case "timeout":
      return fromUrl
        ? errors.upstreamTimeout(error.message)
        : errors.unprocessable(`${error.message} The document is too heavy to render in time; simplify it or raise timeout_ms.`);
    case "budget_exceeded":
      return fromUrl ? errors.upstreamTimeout(error.message) : errors.unprocessable(error.message);
    case "wait_for_timeout":
      return new ApiError(504, "UPSTREAM_TIMEOUT", error.message, details);
    case "navigation_failed":
      return errors.upstream(error.message);
    case "blocked_url":
      return blockedUrl(error, details);
    case "busy":
      return new ApiError(503, "UNAVAILABLE", error.message, undefined, { "retry-after": "5" });
    case "browser_unavailable":
      return errors.unavailable(error.message);
  }
}

/** The guard's own refusal goes out unchanged, so every service refuses a URL the same way. */
function blockedUrl(error: RenderError, details: Array<{ field: string; issue: string }> | undefined): ApiError {
  if (isApiError(error.cause)) return error.cause;
  return new ApiError(400, "VALIDATION_ERROR", error.message, details);
}
