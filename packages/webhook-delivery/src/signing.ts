import { createHmac, randomBytes } from "node:crypto";

/** Standard Webhooks secrets are "whsec_" followed by the base64 of the key bytes. */
export const SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;

export const WEBHOOK_ID_HEADER = "webhook-id";
export const WEBHOOK_TIMESTAMP_HEADER = "webhook-timestamp";
export const WEBHOOK_SIGNATURE_HEADER = "webhook-signature";

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error("signing secret must start with whsec_");
  return Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
}

/**
 * One "v1,<base64 HMAC-SHA256>" signature of `${id}.${timestamp}.${body}`, over the body's exact bytes (the reference
 * library turns a Buffer into a string first, which changes a binary body; the tests verify with it).
 */
function signPayload(secret: string, messageId: string, timestampSeconds: number, body: string | Uint8Array): string {
  const hmac = createHmac("sha256", secretKey(secret));
  hmac.update(`${messageId}.${timestampSeconds}.`);
  hmac.update(body);
  return `v1,${hmac.digest("base64")}`;
}

/**
 * The three Standard Webhooks headers. Several secrets (the current one and, during a rotation's grace period, the
 * previous one) give several space-separated signatures, any of which verifies.
 */
export function signatureHeaders(secrets: readonly string[], messageId: string, timestampSeconds: number, body: string | Uint8Array): Record<string, string> {
  return {
    [WEBHOOK_ID_HEADER]: messageId,
    [WEBHOOK_TIMESTAMP_HEADER]: String(timestampSeconds),
    [WEBHOOK_SIGNATURE_HEADER]: secrets.map((secret) => signPayload(secret, messageId, timestampSeconds, body)).join(" "),
  };
}
