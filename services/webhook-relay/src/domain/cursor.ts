/** Cursors are opaque to clients: base64url of the position of the last item returned. */
export function encodeCursor(position: number): string {
  return Buffer.from(`p${position}`, "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): number | null {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const match = /^p(\d{1,15})$/.exec(text);
  if (!match) return null;
  const position = Number(match[1]);
  return Number.isSafeInteger(position) && position > 0 ? position : null;
}
