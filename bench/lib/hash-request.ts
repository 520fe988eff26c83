/** The request the platform benches send: text-toolkit's POST /hash of a 1 KB text (sha256). */
export const HASH_TEXT = "The quick brown fox jumps over the lazy dog. ".repeat(23).slice(0, 1024);

export const HASH_REQUEST = {
  host: "text-toolkit.api.local",
  method: "POST",
  path: "/hash",
  body: JSON.stringify({ text: HASH_TEXT, algorithm: "sha256" }),
} as const;
