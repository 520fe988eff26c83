import { errors } from "@apiplat/service-kit";
import { normalizeUrl, type UrlSafety } from "@apiplat/url-safety";
import { trackedLinks } from "../domain/tracking.js";

/** Links one message may have tracked: each becomes a signed redirect through our host. */
const MAX_TRACKED_LINKS = 1_000;

const SHOWN_LENGTH = 200;
const shown = (url: string) => (url.length > SHOWN_LENGTH ? `${url.slice(0, SHOWN_LENGTH)}…` : url);

/**
 * Before a message with click tracking is accepted: at most MAX_TRACKED_LINKS links, each a well-formed http(s) URL
 * that the shared destination check (blocklist, Safe Browsing when configured) does not flag. Our host redirects to
 * every tracked link, so a flagged one refuses the whole message (422 naming the link) instead of being laundered.
 */
export class TrackedLinkCheck {
  constructor(private readonly safety: UrlSafety) {}

  async check(html: string): Promise<void> {
    const links = trackedLinks(html, MAX_TRACKED_LINKS);
    if (links.length > MAX_TRACKED_LINKS) {
      const issue = `has more than ${MAX_TRACKED_LINKS.toLocaleString("en-US")} links to track; at most ${MAX_TRACKED_LINKS.toLocaleString("en-US")} links per message are tracked (mark the others data-no-track, or send with track_clicks false)`;
      throw errors.unprocessable(`The HTML ${issue}.`, [{ field: "html", issue }]);
    }
    const normalized = new Map<string, string>();
    const malformed: { field: string; issue: string }[] = [];
    for (const link of new Set(links)) {
      const result = normalizeUrl(link);
      if (result.ok) normalized.set(link, result.url);
      else malformed.push({ field: "html", issue: `has a link that cannot be tracked (${shown(link)}): it ${result.issue}` });
    }
    if (malformed.length > 0) {
      throw errors.unprocessable(
        `${malformed.length === 1 ? "A link" : "Links"} of this message cannot be tracked; fix ${malformed.length === 1 ? "it" : "them"} or mark ${malformed.length === 1 ? "it" : "them"} data-no-track.`,
        malformed,
      );
    }
    const urls = [...normalized.values()];
    const verdicts = await this.safety.check(urls);
    if (verdicts.some((v) => v.kind === "unavailable")) {
      throw errors.unavailable("The link safety check cannot answer right now, so this message with tracked links was not accepted; retry shortly.");
    }
    const flagged = verdicts.flatMap((verdict, i) =>
      verdict.kind === "unsafe"
        ? [
            {
              field: "html",
              issue: `links to ${shown(urls[i])}, flagged as ${verdict.threatType} by ${verdict.source === "safe_browsing" ? "Google Safe Browsing" : "the blocklist"}`,
            },
          ]
        : [],
    );
    if (flagged.length > 0) {
      throw errors.unsafeUrl(`This message was not accepted: its HTML ${flagged.map((f) => f.issue).join("; ")}.`, flagged);
    }
  }
}
