export type InputFormat = "png" | "jpeg" | "tiff" | "webp" | "gif" | "bmp" | "pdf";

/** Recognises an input by its leading bytes; declared content types are not trusted. */
export function sniffFormat(bytes: Buffer): InputFormat | null {
  const startsWith = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (startsWith(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "png";
  if (startsWith(0xff, 0xd8, 0xff)) return "jpeg";
  if (startsWith(0x49, 0x49, 0x2a, 0x00) || startsWith(0x4d, 0x4d, 0x00, 0x2a)) return "tiff";
  if (startsWith(0x52, 0x49, 0x46, 0x46) && bytes.subarray(8, 12).toString("latin1") === "WEBP") return "webp";
  if (bytes.subarray(0, 6).toString("latin1") === "GIF87a" || bytes.subarray(0, 6).toString("latin1") === "GIF89a") return "gif";
  if (startsWith(0x42, 0x4d) && bytes.length >= 26) return "bmp";
  const head = bytes.subarray(0, 1024).toString("latin1");
  if (head.includes("%PDF-")) return "pdf";
  return null;
}
