import type { HeaderEntry } from "../domain/captured-request.js";
import { forwardableHeaders, headersForFetch } from "../domain/forwarding.js";
import { sendSignedWebhook, type OutboundFetcher } from "@apiplat/webhook-delivery";
import type { AttemptOutcome } from "../store/deliveries.js";

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

/** Forwards a captured request, re-addressed and signed: the outcome, never a throw. */
export async function sendRequest(
  outbound: OutboundFetcher,
  url: string,
  request: OutgoingRequest,
  timestampSeconds: number,
  timeoutMs: number,
): Promise<SendResult> {
  const headers = headersForFetch(forwardableHeaders(request.headers, { dropAuthorization: request.dropAuthorization }));
  const attempt = await sendSignedWebhook(
    outbound,
    { url, messageId: request.messageId, method: request.method, headers, body: request.body, secrets: request.secrets },
    timestampSeconds,
    timeoutMs,
  );
  const { responseExcerpt, ...outcome } = attempt;
  return { url, ...outcome, responseBody: responseExcerpt };
}

/** What the attempt that started at `startedAt` records of its result. */
export function attemptOutcome(result: SendResult, startedAt: Date): AttemptOutcome {
  const { url, statusCode, latencyMs, error, responseBody } = result;
  return { url, startedAt, statusCode, latencyMs, error, responseBody };
}

/** The current secret, plus the previous one while its grace period after a rotation lasts. */
export function activeSecrets(current: string, previous: string | null, previousExpiresAt: Date | null, now: Date): string[] {
  return previous !== null && previousExpiresAt !== null && previousExpiresAt > now ? [current, previous] : [current];
}
