import { promises as dnsPromises } from "node:dns";
import { createServiceApp, exposeMetric, type PlatformDeps } from "@apiplat/service-kit";
import { createOutboundClient } from "@apiplat/outbound-guard";
import { ClickRecorder } from "./core/click-recorder.js";
import { GuardedKv } from "./core/kv-guard.js";
import { CustomDomainIndex } from "./core/domain-index.js";
import { LinkCache } from "./core/link-cache.js";
import { LinkService } from "./core/link-service.js";
import { LocalLookup } from "./core/local-lookup.js";
import { Redirector } from "./core/redirector.js";
import { TargetGuard } from "./core/target-guard.js";
import { ownedLinkFinder, type ShortenerCore } from "./core/shortener-core.js";
import { FileBlocklist } from "./domain/blocklist.js";
import type { CnameResolver } from "./domain/domain-verification.js";
import { CountryLookup } from "./domain/geo.js";
import { SafeBrowsingClient } from "./domain/safe-browsing.js";
import { SafetyChecker } from "./domain/safety.js";
import { UserAgentClassifier } from "./domain/user-agent.js";
import { accountRoutes } from "./routes/account.js";
import { linkRoutes } from "./routes/links.js";
import { redirectRoutes } from "./routes/redirect.js";
import { defaultSettings, settingsFromEnv, type ShortenerSettings } from "./settings.js";
import { getFallbackUrl } from "./store/settings.js";

export interface ShortenerDeps extends PlatformDeps {
  /** Overrides of the defaults (main.ts passes the environment's settings). */
  settings?: Partial<ShortenerSettings>;
  /** DNS for custom-domain verification; node:dns by default. */
  dnsResolver?: CnameResolver;
  /** Code generator; random base62 by default (tests use a fixed sequence to force collisions). */
  generateCode?: (length: number) => string;
}

let sharedCountries: CountryLookup | undefined;

/** While the click buffer is full, the error saying so is logged at most this often. */
const DROP_WARNING_INTERVAL_MS = 10_000;
/** The GeoIP tables are read once per process (~15 MB), whatever the number of apps built. */
function countries(): CountryLookup {
  sharedCountries ??= CountryLookup.fromInstalledPackage();
  return sharedCountries;
}

export async function buildApp(deps: ShortenerDeps) {
  const settings: ShortenerSettings = { ...defaultSettings(deps.config), ...deps.settings };
  let clickBacklog = () => 0;
  let lastDropWarning = 0;
  const app = await createServiceApp({
    service: "url-shortener",
    deps,
    migrations: new URL("../migrations", import.meta.url),
    description: "Short links with custom aliases, expiry, click limits, custom domains, safety checks and click analytics.",
    // Not ready while clicks pile up near the buffer's cap: writing them is not keeping up.
    readiness: { click_buffer: async () => clickBacklog() < settings.clickBufferMax * 0.9 },
  });
  const log = app.log.child({ component: "url-shortener" });
  const kv = new GuardedKv(deps.kv, (error) => log.warn({ err: error }, "Redis unavailable: serving from PostgreSQL"));
  const ownHosts = new Set([new URL(settings.baseUrl).hostname, settings.edgeHost]);

  const customDomains = new CustomDomainIndex(deps.db, kv, 30_000, (error) => log.error({ err: error }, "reloading custom domains failed"));
  const accountFallbacks = new LocalLookup<string | null>("url-shortener:settings-changed", kv, (id) => getFallbackUrl(deps.db, id), {
    entries: 10_000,
    ttlMs: 60_000,
  });
  const links = new LinkCache(deps.db, kv, {
    entries: settings.linkCacheEntries,
    localTtlMs: settings.linkCacheTtlMs,
    redisTtlSeconds: settings.redisLinkTtlSeconds,
  });

  const blocklist = settings.blocklistFiles.length > 0 ? new FileBlocklist(settings.blocklistFiles) : null;
  await blocklist?.reload(true);
  const safety = new SafetyChecker({
    ownHosts,
    isCustomDomain: async (host) => customDomains.has(host),
    blocklist,
    safeBrowsing: settings.safeBrowsingApiKey
      ? new SafeBrowsingClient({
          apiKey: settings.safeBrowsingApiKey,
          endpoint: settings.safeBrowsingEndpoint,
          timeoutMs: settings.safeBrowsingTimeoutMs,
          clientId: "apiplat-url-shortener",
          clientVersion: "1.0.0",
        })
      : null,
    failOpen: settings.safeBrowsingFailOpen,
    onSafeBrowsingUnavailable: (reason) =>
      log.warn({ reason, policy: settings.safeBrowsingFailOpen ? "open" : "closed" }, "Safe Browsing unavailable"),
  });

  const outbound = createOutboundClient({ allowCidrs: deps.config.outboundAllowCidrs });
  const targets = new TargetGuard(outbound);
  const checkOutbound = (url: string, field: string) => targets.check(url, field);

  const clicks = new ClickRecorder({
    db: deps.db,
    countries: countries(),
    userAgents: new UserAgentClassifier(),
    batchSize: settings.clickBatchSize,
    maxBuffered: settings.clickBufferMax,
    onError: (error, pending) => log.error({ err: error, pending }, "writing clicks failed; they stay buffered"),
    onDrop: (droppedTotal) => {
      const now = Date.now();
      if (now - lastDropWarning < DROP_WARNING_INTERVAL_MS) return;
      lastDropWarning = now;
      log.error({ dropped_total: droppedTotal, cap: settings.clickBufferMax }, "click buffer full: clicks are being dropped");
    },
  });
  clickBacklog = () => clicks.buffer.size;
  exposeMetric(app, { name: "shortener_click_backlog", help: "Clicks waiting to be written to PostgreSQL", type: "gauge", read: () => clicks.buffer.size });
  exposeMetric(app, { name: "shortener_clicks_written_total", help: "Clicks written to PostgreSQL", type: "counter", read: () => clicks.buffer.writtenTotal });
  exposeMetric(app, { name: "shortener_clicks_dropped_total", help: "Clicks dropped because the buffer was full", type: "counter", read: () => clicks.buffer.droppedTotal });
  const linkService = new LinkService({ db: deps.db, settings, safety, links, now: deps.now, checkOutbound, generateCode: deps.generateCode });

  const domainForHost = (host: string): string => {
    const bare = host.toLowerCase().replace(/\.$/, "");
    if (ownHosts.has(bare)) return "";
    return customDomains.has(bare) ? bare : "";
  };

  const core: ShortenerCore = {
    db: deps.db,
    settings,
    now: deps.now,
    links,
    linkService,
    clicks,
    redirector: new Redirector({ db: deps.db, links, domainForHost, accountFallbacks, clicks, now: deps.now }),
    accountFallbacks,
    customDomains,
    dnsResolver: deps.dnsResolver ?? dnsPromises,
    checkFallback: (url) => linkService.checkStandaloneUrl(url, "fallback_url"),
    ownedLink: ownedLinkFinder(deps.db, settings),
  };

  await Promise.all([links.start(), customDomains.start(), accountFallbacks.start()]);
  clicks.buffer.start(settings.clickFlushMs);
  const blocklistTimer = blocklist && settings.blocklistReloadMs > 0 ? setInterval(() => void reloadBlocklist(), settings.blocklistReloadMs) : null;
  blocklistTimer?.unref();
  async function reloadBlocklist(): Promise<void> {
    try {
      if (await blocklist?.reload()) log.info({ entries: blocklist?.size }, "blocklist reloaded");
    } catch (error) {
      log.error({ err: error }, "blocklist reload failed; the previous lists stay in force");
    }
  }
  app.decorate("reloadBlocklist", reloadBlocklist);

  await app.register(linkRoutes(core));
  await app.register(accountRoutes(core));
  await app.register(redirectRoutes(core));

  app.addHook("onClose", async () => {
    if (blocklistTimer) clearInterval(blocklistTimer);
    await clicks.buffer.close();
    if (clicks.buffer.size > 0) log.error({ pending: clicks.buffer.size }, "clicks could not be written before shutdown");
    await Promise.all([links.stop(), customDomains.stop(), accountFallbacks.stop()]);
    await outbound.close();
  });
  return app;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Re-reads the blocklist files when they changed (main.ts calls it on SIGHUP). */
    reloadBlocklist?: () => Promise<void>;
  }
}

export { settingsFromEnv };

/** For scripts/start-all.ts: every service in one process. */
export const service = {
  name: "url-shortener" as const,
  build: (platform: PlatformDeps) => buildApp({ ...platform, settings: settingsFromEnv(platform.config) }),
};
