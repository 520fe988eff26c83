/** Message statuses and how events move them. */

export const STATUSES = ["queued", "scheduled", "sent", "delivered", "deferred", "opened", "clicked", "bounced", "complained", "failed", "cancelled"] as const;

/** Events a webhook may subscribe to: every status a message can move to after it was accepted. */
export const WEBHOOK_EVENT_TYPES = [
  "sent",
  "delivered",
  "deferred",
  "opened",
  "clicked",
  "bounced",
  "complained",
  "failed",
  "cancelled",
  "unsubscribed",
] as const;

/** Progress of a message on its way to a reader; a later event never moves the status backwards. */
const PROGRESS: Record<string, number> = {
  queued: 0,
  scheduled: 0,
  deferred: 1,
  sent: 2,
  delivered: 3,
  opened: 4,
  clicked: 5,
};

/** Statuses that end the story: only a complaint (a reader's verdict) moves past them. */
const FINAL = new Set(["bounced", "failed", "cancelled", "complained"]);

/**
 * The status after an event. Progress statuses only move forward (an open after a click leaves "clicked"); a bounce
 * overrides progress up to delivered; a complaint overrides anything but a cancellation.
 */
export function statusAfter(current: string, event: string): string {
  if (event === "complained") return current === "cancelled" ? current : "complained";
  if (FINAL.has(current)) return current;
  if (event === "bounced" || event === "failed" || event === "cancelled") return event;
  const next = PROGRESS[event];
  if (next === undefined) return current;
  return next > (PROGRESS[current] ?? 0) ? event : current;
}
