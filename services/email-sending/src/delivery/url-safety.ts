import type { BackgroundWork } from "@apiplat/service-kit";
import { configuredUrlSafety, FileBlocklist, type UrlSafety } from "@apiplat/url-safety";
import type { FastifyBaseLogger } from "fastify";
import type { EmailSettings } from "../settings.js";

/**
 * The shared destination check for tracked links, from the service's settings: the blocklist files (read at start,
 * then re-read when they change) and Safe Browsing when a key is set. With neither, every well-formed link passes.
 */
export async function urlSafety(settings: EmailSettings, log: FastifyBaseLogger, background: (work: BackgroundWork) => void): Promise<UrlSafety> {
  const blocklist = settings.blocklistFiles.length > 0 ? new FileBlocklist(settings.blocklistFiles) : null;
  if (blocklist) {
    await blocklist.reload(true);
    log.info({ entries: blocklist.size }, "tracked links are checked against the blocklist");
  }
  if (blocklist && settings.blocklistReloadMs > 0) {
    let timer: NodeJS.Timeout | undefined;
    const reload = () =>
      blocklist.reload().then(
        (changed) => changed && log.info({ entries: blocklist.size }, "blocklist reloaded"),
        (error: unknown) => log.error({ err: error }, "blocklist reload failed; the previous lists stay in force"),
      );
    background({
      name: "blocklist reload",
      start: () => void (timer = setInterval(() => void reload(), settings.blocklistReloadMs)),
      stop: () => clearInterval(timer),
    });
  }
  return configuredUrlSafety(settings, blocklist, "apiplat-email-sending", log);
}
