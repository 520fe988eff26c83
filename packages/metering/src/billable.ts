/**
 * Whether an answer is the platform's own failure, which is neither counted nor billed: a 500, a 503 (a model, a queue
 * or a dependency of ours unavailable), any 5xx but two. 502 UPSTREAM_ERROR and 504 UPSTREAM_TIMEOUT say that the
 * subscriber's own target failed (their URL, their webhook, the page they asked for): the request did its work and
 * counts. A route whose 502/504 would come from a dependency of ours answers 503 UNAVAILABLE instead.
 */
export function isPlatformFailure(status: number): boolean {
  return status >= 500 && status !== 502 && status !== 504;
}
