import { createHash } from "node:crypto";

export const HASH_ALGORITHMS = ["md5", "sha1", "sha256", "sha512"] as const;
type HashAlgorithm = (typeof HASH_ALGORITHMS)[number];

/** Hex digest of the text's UTF-8 bytes. */
export function hexDigest(text: string, algorithm: HashAlgorithm): string {
  return createHash(algorithm).update(text, "utf8").digest("hex");
}
