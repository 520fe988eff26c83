import { createCipheriv, createDecipheriv } from "node:crypto";
import { deriveKey } from "./tokens.js";

/** DKIM private keys are stored encrypted (AES-256-GCM) with a key derived from EMAIL_SECRET. */

const VERSION = "v1";
/** The length of the random IV the caller draws for each encryption (GCM's 96 bits). */
export const IV_BYTES = 12;

export function encryptPrivateKey(secret: string, pem: string, iv: Buffer): string {
  const cipher = createCipheriv("aes-256-gcm", deriveKey(secret, "dkim-private-keys"), iv);
  const sealed = Buffer.concat([cipher.update(pem, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64"), cipher.getAuthTag().toString("base64"), sealed.toString("base64")].join(".");
}

/** Throws when the secret is not the one the key was sealed with. */
export function decryptPrivateKey(secret: string, sealed: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== VERSION) throw new Error("unknown DKIM key format");
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(secret, "dkim-private-keys"), Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8");
}

/** A selector per key generation month, so that a rotated key can be published beside the old one. */
export function selectorFor(now: Date): string {
  return `es${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
}
