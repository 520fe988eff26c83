/** An error a client can act on: it becomes the shared error envelope with its status and code. */
export interface ErrorDetail {
  field: string;
  issue: string;
}

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const errors = {
  validation: (field: string, issue: string, message?: string) => new ApiError(400, "VALIDATION_ERROR", message ?? `${field} ${issue}.`, [{ field, issue }]),
  validationMany: (details: ErrorDetail[], message?: string) =>
    new ApiError(400, "VALIDATION_ERROR", message ?? details.map((d) => `${d.field} ${d.issue}`).join("; ") + ".", details),
  missingApiKey: () => new ApiError(401, "MISSING_API_KEY", "Send your API key in the X-Gateway-Key header."),
  invalidApiKey: (message = "The API key in X-Gateway-Key is unknown or has been revoked.") => new ApiError(403, "INVALID_API_KEY", message),
  hostMismatch: (expected: string) => new ApiError(403, "HOST_MISMATCH", `X-Gateway-Host must be ${expected} for this service.`),
  forbidden: (code: string, message: string) => new ApiError(403, code, message),
  notFound: (message = "The resource does not exist.") => new ApiError(404, "NOT_FOUND", message),
  conflict: (message: string, details?: ErrorDetail[]) => new ApiError(409, "CONFLICT", message, details),
  payloadTooLarge: (field: string, issue: string) => new ApiError(413, "PAYLOAD_TOO_LARGE", `${field} ${issue}.`, [{ field, issue }]),
  unsupportedMediaType: (message: string) => new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", message),
  unsafeUrl: (message: string, details?: ErrorDetail[]) => new ApiError(422, "UNSAFE_URL", message, details),
  unprocessable: (message: string, details?: ErrorDetail[]) => new ApiError(422, "UNPROCESSABLE", message, details),
  quotaExceeded: (limit: number, resetSeconds: number) =>
    new ApiError(
      429,
      "QUOTA_EXCEEDED",
      `The BASIC plan allows ${limit} requests a month and they are used up; upgrade the plan or wait for the reset in ${resetSeconds} seconds.`,
    ),
  rateLimited: (perSecond: number, retryAfterSeconds: number) =>
    new ApiError(429, "RATE_LIMITED", `Your plan allows ${perSecond} requests per second; retry after ${retryAfterSeconds} second(s).`, undefined, {
      "retry-after": String(retryAfterSeconds),
    }),
  upstream: (message: string) => new ApiError(502, "UPSTREAM_ERROR", message),
  upstreamTimeout: (message: string) => new ApiError(504, "UPSTREAM_TIMEOUT", message),
  unavailable: (message: string) => new ApiError(503, "UNAVAILABLE", message),
};

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
