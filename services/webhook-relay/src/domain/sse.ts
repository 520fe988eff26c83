/** One Server-Sent Events message (WHATWG HTML, section 9.2). `data` must be a single line (JSON is). */
export function sseEvent(id: string, event: string, data: string): string {
  return `id: ${id}\nevent: ${event}\ndata: ${data}\n\n`;
}

/** A comment line: ignored by EventSource, keeps proxies from closing an idle stream. */
export function sseComment(text: string): string {
  return `: ${text}\n\n`;
}

export function sseRetry(milliseconds: number): string {
  return `retry: ${milliseconds}\n\n`;
}

/** Last-Event-ID carries the position of the last capture a client saw; anything else is ignored. */
export function parseLastEventId(value: string | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value.trim())) return null;
  return Number(value.trim());
}
