import type { HeaderEntry } from "../domain/captured-request.js";
import { forwardableHeaders, headersForFetch } from "../domain/forwarding.js";
import { signatureHeaders } from "../domain/signature.js";

/** The slice of the shared outbound client (@apiplat/outbound-guard) that sending needs. */
export interface OutboundFetcher {
  fetch(
    url: string,
    init: { method: string; headers: Record<string, string | string[]>; body?: Buffer; timeoutMs: number; maxBytes: number; maxRedirects: number },
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>;
}

/** What is sent: a captured request, re-addressed and signed. */
interface OutgoingRequest {
  messageId: string;
  method: string;
  headers: HeaderEntry[];
  body: Buffer;
  /** The inbox had Basic credentials: the sender's Authorization header was for us. */
  dropAuthorization: boolean;
  secrets: string[];
}

export interface SendResult {
  url: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
  retryAfter?: string;
  /** The URL guard refused the destination: retrying cannot help. */
  permanentError: boolean;
}

/** What of the destination's answer is kept on the attempt, for debugging. */
const RESPONSE_EXCERPT_BYTES = 1024;
/** The destination's answer is read up to this size; the shared client fails a larger one (502). */
const RESPONSE_READ_LIMIT = 1024 * 1024;

function errorDetails(error: unknown): { message: string; permanent: boolean } {
  const status = (error as { statusCode?: unknown }).statusCode;
  const message = error instanceof Error ? error.message : String(error);
  // The guard answers 4xx for a refused URL; network failures and timeouts come back as 5xx or plain errors.
  const permanent = typeof status === "number" && status >= 400 && status < 500;
  return { message, permanent };
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export async function sendRequest(
  outbound: OutboundFetcher,
  url: string,
  request: OutgoingRequest,
  timestampSeconds: number,
  timeoutMs: number,
): Promise<SendResult> {
  const headers = {
    ...headersForFetch(forwardableHeaders(request.headers, { dropAuthorization: request.dropAuthorization })),
    ...signatureHeaders(request.secrets, request.messageId, timestampSeconds, request.body),
  };
  const started = performance.now();
  try {
    const response = await outbound.fetch(url, {
      method: request.method,
      headers,
      body: request.body.length > 0 ? request.body : undefined,
      timeoutMs,
      maxBytes: RESPONSE_READ_LIMIT,
      maxRedirects: 0,
    });
    return {
      url,
      statusCode: response.status,
      latencyMs: Math.round(performance.now() - started),
      error: null,
      responseBody: response.body.subarray(0, RESPONSE_EXCERPT_BYTES).toString("utf8"),
      retryAfter: firstHeader(response.headers["retry-after"]),
      permanentError: false,
    };
  } catch (error) {
    const { message, permanent } = errorDetails(error);
    return {
      url,
      statusCode: null,
      latencyMs: Math.round(performance.now() - started),
      error: message,
      responseBody: null,
      permanentError: permanent,
    };
  }
}

/** The current secret, plus the previous one while its grace period after a rotation lasts. */
export function activeSecrets(current: string, previous: string | null, previousExpiresAt: Date | null, now: Date): string[] {
  return previous !== null && previousExpiresAt !== null && previousExpiresAt > now ? [current, previous] : [current];
}
