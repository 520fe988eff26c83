/**
 * What can go wrong while producing a PDF, in domain terms. The HTTP layer maps each kind to a status and an
 * error code of the shared envelope (routes/errors.ts).
 */
type RenderErrorKind =
  | "invalid_option" // an option parses but is out of bounds (field + issue given)
  | "page_limit" // the result has more pages than the plan allows
  | "timeout" // the job did not finish within its timeout
  | "budget_exceeded" // the job did not finish within its plan's render budget (lower than its timeout)
  | "wait_for_timeout" // the wait_for selector never appeared
  | "navigation_failed" // the page at the URL could not be loaded
  | "blocked_url" // the URL (or a redirect of it) was refused by the outbound guard
  | "renderer_crashed" // the document crashed the browser tab (usually too large or too complex)
  | "browser_unavailable" // the browser could not be started or died mid-job
  | "busy" // the queue is full or the wait for a free page took too long
  | "not_tagged" // pdf_ua was asked but the result carries no structure tree
  | "invalid_pdf" // an input of /merge is not a PDF we can read
  | "merge_too_heavy"; // a merge ran out of its time or memory

export class RenderError extends Error {
  constructor(
    readonly kind: RenderErrorKind,
    message: string,
    readonly field?: string,
    readonly issue?: string,
    /** The original refusal (e.g. the outbound guard's), kept so the HTTP layer can answer with it unchanged. */
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = "RenderError";
  }
}

export function isRenderError(error: unknown): error is RenderError {
  return error instanceof RenderError;
}
