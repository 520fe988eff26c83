import { signatureHeaders } from "./signing.js";

/** The slice of the shared outbound client (@apiplat/outbound-guard) that sending needs. */
export interface OutboundFetcher {
  fetch(
    url: string,
    init: { method: string; headers: Record<string, string | string[]>; body?: Buffer | string; timeoutMs: number; maxBytes: number; maxRedirects: number },
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>;
}

export interface SignedWebhook {
  url: string;
  /** The webhook-id: the same on every retry of one event, so that receivers can drop duplicates. */
  messageId: string;
  body: string | Buffer;
  secrets: readonly string[];
  /** Headers besides the signature, sent as given; without them the body is sent as JSON. */
  headers?: Record<string, string | string[]>;
  method?: string;
}

export interface WebhookAttempt {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The start of the destination's answer, kept for debugging. */
  responseExcerpt: string | null;
  retryAfter?: string;
  /** The URL guard refused the destination: retrying cannot help. */
  permanentError: boolean;
}

/** What of the destination's answer is kept on the attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;
/** The destination's answer is read up to this size; the shared client fails a larger one. */
export const RESPONSE_READ_LIMIT = 1024 * 1024;

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

/** One signed POST (no redirects followed): the outcome, never a throw. */
export async function sendSignedWebhook(
  outbound: OutboundFetcher,
  webhook: SignedWebhook,
  timestampSeconds: number,
  timeoutMs: number,
): Promise<WebhookAttempt> {
  const headers = {
    ...(webhook.headers ?? { "content-type": "application/json" }),
    ...signatureHeaders(webhook.secrets, webhook.messageId, timestampSeconds, webhook.body),
  };
  const started = performance.now();
  try {
    const response = await outbound.fetch(webhook.url, {
      method: webhook.method ?? "POST",
      headers,
      body: webhook.body.length > 0 ? webhook.body : undefined,
      timeoutMs,
      maxBytes: RESPONSE_READ_LIMIT,
      maxRedirects: 0,
    });
    return {
      statusCode: response.status,
      latencyMs: Math.round(performance.now() - started),
      error: null,
      responseExcerpt: response.body.subarray(0, RESPONSE_EXCERPT_BYTES).toString("utf8"),
      retryAfter: firstHeader(response.headers["retry-after"]),
      permanentError: false,
    };
  } catch (error) {
    const { message, permanent } = errorDetails(error);
    return { statusCode: null, latencyMs: Math.round(performance.now() - started), error: message, responseExcerpt: null, permanentError: permanent };
  }
}
