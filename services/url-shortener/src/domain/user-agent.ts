import { isbot } from "isbot";
import { UAParser } from "ua-parser-js";
import { LruCache } from "./lru.js";

interface ClientProfile {
  deviceType: string;
  browser: string | null;
  os: string | null;
  isBot: boolean;
}

const MAX_UA_LENGTH = 512;

/**
 * Classifies user agents. Real traffic repeats a small set of user-agent strings, so results are cached;
 * this keeps parsing off the per-click cost.
 */
export class UserAgentClassifier {
  private readonly cache = new LruCache<ClientProfile>(5_000);

  classify(userAgent: string | undefined): ClientProfile {
    const ua = (userAgent ?? "").slice(0, MAX_UA_LENGTH);
    const cached = this.cache.get(ua);
    if (cached) return cached;
    const profile = classifyUncached(ua);
    this.cache.set(ua, profile, 3_600_000);
    return profile;
  }
}

function classifyUncached(ua: string): ClientProfile {
  if (ua === "") return { deviceType: "unknown", browser: null, os: null, isBot: true };
  const result = new UAParser(ua).getResult();
  const bot = isbot(ua);
  return {
    deviceType: bot ? "bot" : (result.device.type ?? "desktop"),
    browser: result.browser.name ?? null,
    os: result.os.name ?? null,
    isBot: bot,
  };
}
