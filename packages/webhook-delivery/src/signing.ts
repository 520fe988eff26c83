import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** Standard Webhooks secrets are "whsec_" followed by the base64 of the key bytes. */
export const SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;

export const WEBHOOK_ID_HEADER = "webhook-id";
export const WEBHOOK_TIMESTAMP_HEADER = "webhook-timestamp";
export const WEBHOOK_SIGNATURE_HEADER = "webhook-signature";

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

/**
 * The three Standard Webhooks headers, signed with the reference library. Several secrets (the current one and,
 * during a rotation's grace period, the previous one) give several space-separated signatures, any of which verifies.
 */
export function signatureHeaders(secrets: readonly string[], messageId: string, timestampSeconds: number, body: string | Buffer): Record<string, string> {
  const timestamp = new Date(timestampSeconds * 1000);
  return {
    [WEBHOOK_ID_HEADER]: messageId,
    [WEBHOOK_TIMESTAMP_HEADER]: String(timestampSeconds),
    [WEBHOOK_SIGNATURE_HEADER]: secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(" "),
  };
}
