import type { BackgroundWork } from "@apiplat/service-kit";
import { blocklistReloadWork, configuredUrlSafety, loadBlocklist, type UrlSafety } from "@apiplat/url-safety";
import type { FastifyBaseLogger } from "fastify";
import type { EmailSettings } from "../settings.js";

/**
 * The shared destination check for tracked links, from the service's settings: the blocklist files (read at start,
 * then re-read when they change) and Safe Browsing when a key is set. With neither, every well-formed link passes.
 */
export async function urlSafety(settings: EmailSettings, log: FastifyBaseLogger, background: (work: BackgroundWork) => void): Promise<UrlSafety> {
  const blocklist = await loadBlocklist(settings.blocklistFiles);
  if (blocklist) {
    log.info({ entries: blocklist.size }, "tracked links are checked against the blocklist");
  }
  if (blocklist && settings.blocklistReloadMs > 0) background(blocklistReloadWork(blocklist, settings.blocklistReloadMs, log));
  return configuredUrlSafety(settings, blocklist, "apiplat-email-sending", log);
}
