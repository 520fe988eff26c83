type LinkState = "active" | "expired" | "click_limit_reached" | "deleted";

interface LinkLifetime {
  deletedAt: Date | null;
  expiresAt: Date | null;
  maxClicks: number | null;
  clicks: number;
}

/** Deleted wins over expired, expired over the click limit: the first reason a link stopped working. */
export function linkState(link: LinkLifetime, now: Date): LinkState {
  if (link.deletedAt) return "deleted";
  if (link.expiresAt && link.expiresAt.getTime() <= now.getTime()) return "expired";
  if (link.maxClicks !== null && link.clicks >= link.maxClicks) return "click_limit_reached";
  return "active";
}
