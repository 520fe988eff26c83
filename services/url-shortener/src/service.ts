import { promises as dnsPromises } from "node:dns";
import { defineService, exposeMetric, type ServiceApp, type ServiceContext } from "@apiplat/service-kit";
import { createOutboundClient } from "@apiplat/outbound-guard";
import { LinkService } from "./app/link-service.js";
import { Redirector } from "./app/redirector.js";
import { ClickRecorder } from "./engine/click-recorder.js";
import type { CnameResolver } from "./engine/domain-verification.js";
import { CustomDomainIndex } from "./engine/domain-index.js";
import { CountryLookup } from "./engine/geo.js";
import { GuardedKv } from "./engine/kv-guard.js";
import { LinkCache } from "./engine/link-cache.js";
import { LocalLookup } from "./engine/local-lookup.js";
import { SafetyChecker } from "./engine/safety.js";
import { blocklistReloadWork, configuredUrlSafety, loadBlocklist, reloadBlocklist, type FileBlocklist } from "@apiplat/url-safety";
import { TargetGuard } from "./engine/target-guard.js";
import { UserAgentClassifier } from "./domain/user-agent.js";
import { accountRoutes } from "./routes/account.js";
import { linkRoutes } from "./routes/links.js";
import { redirectRoutes } from "./routes/redirect.js";
import { settingsFromEnv, type ShortenerSettings } from "./settings.js";
import { getFallbackUrl } from "./store/settings.js";

export interface ShortenerInject {
  /** DNS for custom-domain verification; node:dns by default. */
  dnsResolver: CnameResolver;
  /** Code generator; random base62 by default (tests use a fixed sequence to force collisions). */
  generateCode: (length: number) => string;
}

type ShortenerContext = ServiceContext<ShortenerSettings, ShortenerInject>;
type Log = ServiceApp["log"];

let sharedCountries: CountryLookup | undefined;

/** While the click buffer is full, the error saying so is logged at most this often. */
const DROP_WARNING_INTERVAL_MS = 10_000;
/** The GeoIP tables are read once per process (~15 MB), whatever the number of apps built. */
function countries(): CountryLookup {
  sharedCountries ??= CountryLookup.fromInstalledPackage();
  return sharedCountries;
}

export default defineService<ShortenerSettings, ShortenerInject>({
  name: "url-shortener",
  description: "Short links with custom aliases, expiry, click limits, custom domains, safety checks and click analytics.",
  settings: settingsFromEnv,
  migrations: new URL("../migrations", import.meta.url),
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build(context) {
    const { app, platform, settings, inject, background } = context;
    const { db } = platform;
    const log = app.log.child({ component: "url-shortener" });
    const kv = new GuardedKv(platform.kv, (error) => log.warn({ err: error }, "Redis unavailable: serving from PostgreSQL"));
    const ownHosts = new Set([new URL(settings.baseUrl).hostname, settings.edgeHost]);

    const outbound = createOutboundClient({ allowCidrs: platform.config.outboundAllowCidrs });
    background({ name: "outbound client", start() {}, stop: () => outbound.close() });
    const targets = new TargetGuard(outbound);
    const checkOutbound = (url: string, field: string) => targets.check(url, field);
    const { customDomains, accountFallbacks, links } = caches(context, kv, log);
    const blocklist = await loadBlocklist(settings.blocklistFiles);
    const safety = new SafetyChecker({
      ownHosts,
      ownBaseUrl: settings.baseUrl,
      isCustomDomain: async (host) => customDomains.has(host),
      urlSafety: configuredUrlSafety(settings, blocklist, "apiplat-url-shortener", log),
    });
    const clicks = clickRecorder(context, kv, log);
    reloadBlocklistOnSignalAndTimer(context, blocklist, log);

    const linkService = new LinkService({ db, settings, safety, links, now: platform.now, checkOutbound, generateCode: inject.generateCode });
    const domainForHost = (host: string): string => {
      const bare = host.toLowerCase().replace(/\.$/, "");
      if (ownHosts.has(bare)) return "";
      return customDomains.has(bare) ? bare : "";
    };
    const now = platform.now;
    await app.register(linkRoutes, { db, settings, now, linkService, clicks });
    await app.register(accountRoutes, {
      db,
      settings,
      now,
      accountFallbacks,
      customDomains,
      dnsResolver: inject.dnsResolver ?? dnsPromises,
      checkFallback: (url) => linkService.checkStandaloneUrl(url, "fallback_url"),
    });
    const redirector = new Redirector({ db, links, domainForHost, accountFallbacks, clicks, now });
    await app.register(redirectRoutes, { redirector, trustedProxyHops: settings.trustedProxyHops });
  },
});

/** The link, custom domain and fallback caches in front of PostgreSQL, kept fresh across replicas through Redis. */
function caches({ platform, settings, background }: ShortenerContext, kv: GuardedKv, log: Log) {
  const { db } = platform;
  const customDomains = new CustomDomainIndex(db, kv, 30_000, (error) => log.error({ err: error }, "reloading custom domains failed"));
  const accountFallbacks = new LocalLookup<string | null>("url-shortener:settings-changed", kv, (id) => getFallbackUrl(db, id), {
    entries: 10_000,
    ttlMs: 60_000,
  });
  const links = new LinkCache(db, kv, {
    entries: settings.linkCacheEntries,
    localTtlMs: settings.linkCacheTtlMs,
    redisTtlSeconds: settings.redisLinkTtlSeconds,
  });
  background({
    name: "link, custom domain and fallback caches",
    start: async () => void (await Promise.all([links.start(), customDomains.start(), accountFallbacks.start()])),
    stop: async () => void (await Promise.all([links.stop(), customDomains.stop(), accountFallbacks.stop()])),
  });
  return { customDomains, accountFallbacks, links };
}

/**
 * Clicks kept in Redis and written to PostgreSQL in batches; a full buffer drops clicks and says so at most every
 * 10 s. Its backlog is a readiness check and three metrics.
 */
function clickRecorder({ app, platform, settings, background, readiness }: ShortenerContext, kv: GuardedKv, log: Log): ClickRecorder {
  let lastDropWarning = 0;
  const db = platform.db;
  const clicks = new ClickRecorder({
    db,
    kv,
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
  background({
    name: "click log and buffer",
    start: () => clicks.start(settings.clickFlushMs),
    async stop() {
      await clicks.close();
      if (clicks.buffer.size > 0) log.error({ pending: clicks.buffer.size }, "clicks could not be written before shutdown");
    },
  });
  // Not ready while clicks pile up near the buffer's cap: writing them is not keeping up.
  readiness("click_buffer", async () => clicks.buffer.size < settings.clickBufferMax * 0.9);
  exposeMetric(app, {
    name: "shortener_click_backlog",
    help: "Clicks waiting in this process's memory (the shared store failed) to be written to PostgreSQL",
    type: "gauge",
    read: () => clicks.buffer.size,
  });
  exposeMetric(app, { name: "shortener_clicks_written_total", help: "Clicks written to PostgreSQL", type: "counter", read: () => clicks.writtenTotal });
  exposeMetric(app, {
    name: "shortener_clicks_dropped_total",
    help: "Clicks dropped because the buffer was full",
    type: "counter",
    read: () => clicks.buffer.droppedTotal,
  });
  return clicks;
}

/** SIGHUP re-reads the blocklist files at once; they are also checked on an interval. */
function reloadBlocklistOnSignalAndTimer({ settings, background, onSignal }: ShortenerContext, blocklist: FileBlocklist | null, log: Log): void {
  onSignal("SIGHUP", async () => {
    if (blocklist) await reloadBlocklist(blocklist, log);
  });
  if (blocklist && settings.blocklistReloadMs > 0) background(blocklistReloadWork(blocklist, settings.blocklistReloadMs, log));
}
