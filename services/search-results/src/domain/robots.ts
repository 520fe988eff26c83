/**
 * robots.txt as the crawler reads it (RFC 9309): the group for our user agent (else `*`), Allow/Disallow with `*`
 * and `$`, the longest match winning and Allow winning a tie, and Crawl-delay (not in the RFC, widely used).
 */

export interface RobotsRules {
  rules: { allow: boolean; pattern: string }[];
  /** Seconds between requests the site asks for; null when it does not say. */
  crawlDelaySeconds: number | null;
}

export const ALLOW_EVERYTHING: RobotsRules = { rules: [], crawlDelaySeconds: null };

interface Group {
  agents: string[];
  rules: { allow: boolean; pattern: string }[];
  crawlDelaySeconds: number | null;
}

/** Parses a robots.txt for the crawler whose product token is `userAgent` (e.g. "apiplat-search-bot"). */
export function parseRobots(text: string, userAgent: string): RobotsRules {
  const groups: Group[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r?\n|\r/)) {
    const line = rawLine.replace(/#.*/, "").trim();
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === "user-agent") {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [], crawlDelaySeconds: null };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current) continue;
    if (field === "allow" || field === "disallow") {
      // An empty Disallow allows everything: no rule.
      if (value !== "") current.rules.push({ allow: field === "allow", pattern: value });
    } else if (field === "crawl-delay") {
      const seconds = Number(value);
      if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelaySeconds = seconds;
    }
  }
  const token = userAgent.toLowerCase().split("/")[0];
  const own = groups.filter((g) => g.agents.some((a) => a !== "*" && token.includes(a)));
  const chosen = own.length > 0 ? own : groups.filter((g) => g.agents.includes("*"));
  return {
    rules: chosen.flatMap((g) => g.rules),
    crawlDelaySeconds: chosen.map((g) => g.crawlDelaySeconds).find((d) => d !== null) ?? null,
  };
}

function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}${anchored ? "$" : ""}`).test(path);
}

/** Whether `pathAndQuery` (e.g. "/private/a?b=1") may be fetched. */
export function isAllowed(robots: RobotsRules, pathAndQuery: string): boolean {
  let best: { allow: boolean; length: number } | null = null;
  for (const rule of robots.rules) {
    if (!patternMatches(rule.pattern, pathAndQuery)) continue;
    const length = rule.pattern.length;
    if (!best || length > best.length || (length === best.length && rule.allow)) best = { allow: rule.allow, length };
  }
  return best?.allow ?? true;
}
