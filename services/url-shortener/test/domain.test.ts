import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ClickBuffer, type RawClick } from "../src/engine/click-buffer.js";
import { CODE_ALPHABET, generateCode, isReservedCode } from "../src/domain/codes.js";
import { FileBlocklist, parseCsvLine, parseFeed, type BlocklistEntries } from "@apiplat/url-safety";
import { verifyCname } from "../src/engine/domain-verification.js";
import { CountryLookup } from "../src/engine/geo.js";
import { linkState } from "../src/domain/link-state.js";
import { LruCache } from "../src/domain/lru.js";
import { referrerDomain } from "../src/domain/referrer.js";
import { daysOf, fillSeries, isCalendarDate, resolveWindow } from "../src/domain/stats-window.js";
import { normalizeUrl } from "../src/domain/url.js";
import { UserAgentClassifier } from "../src/domain/user-agent.js";
import { StringPool } from "../src/domain/string-pool.js";
import { UtcDays, visitorFingerprint } from "../src/domain/visitor.js";
import { GOOGLEBOT, SAFARI_IPHONE } from "./helpers.js";

describe("codes", () => {
  it("are drawn from base62 at the requested length with every character reachable", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const code = generateCode(7, randomBytes);
      expect(code).toMatch(/^[0-9A-Za-z]{7}$/);
      for (const char of code) seen.add(char);
    }
    expect(seen.size).toBe(CODE_ALPHABET.length);
    expect(generateCode(12, randomBytes)).toHaveLength(12);
  });

  it("reserve the service's own words case-insensitively", () => {
    expect(isReservedCode("Stats")).toBe(true);
    expect(isReservedCode("openapi.json")).toBe(true);
    expect(isReservedCode("statsx")).toBe(false);
  });
});

describe("normalizeUrl", () => {
  it("canonicalizes scheme, host, default port, empty path and IDN", () => {
    expect(normalizeUrl(" HTTP://WWW.Example.com:80 ")).toEqual({ ok: true, url: "http://www.example.com/", host: "www.example.com" });
    expect(normalizeUrl("https://bücher.example/ä?q=a b")).toEqual({
      ok: true,
      url: "https://xn--bcher-kva.example/%C3%A4?q=a%20b",
      host: "xn--bcher-kva.example",
    });
  });

  it("measures the 2048 bound after normalization", () => {
    const expanding = "https://example.com/" + "ä".repeat(400);
    expect(normalizeUrl(expanding)).toEqual({ ok: false, issue: "must be at most 2048 characters once normalized" });
  });
});

describe("blocklist feeds", () => {
  it("parse host lists, hosts-file lines and URLhaus CSV", () => {
    const entries: BlocklistEntries = { hosts: new Map(), urls: new Map() };
    parseFeed("# comment\nbad.example\n0.0.0.0 worse.example # note\nlocalhost\n\n", "hosts", entries);
    parseFeed('"1","2026-01-01","http://x.example/a.exe","online","","malware_download","","",""', "csv", entries);
    expect([...entries.hosts.keys()]).toEqual(["bad.example", "worse.example"]);
    expect([...entries.urls.entries()]).toEqual([["http://x.example/a.exe", { threatType: "MALWARE_DOWNLOAD", source: "csv" }]]);
  });

  it("split quoted CSV fields with commas and doubled quotes", () => {
    expect(parseCsvLine('"a,b","say ""hi""",plain')).toEqual(["a,b", 'say "hi"', "plain"]);
  });

  it("match a listed host's subdomains but not its look-alikes", async () => {
    const list = new FileBlocklist([new URL("./fixtures/hosts.txt", import.meta.url).pathname]);
    await list.reload(true);
    expect(list.match("https://deep.sub.malware.example/x")?.threatType).toBe("BLOCKLISTED_HOST");
    expect(list.match("https://notmalware.example/")).toBeNull();
    expect(list.size).toEqual({ hosts: 3, urls: 0 });
  });
});

describe("CountryLookup over the bundled GeoLite2 country tables", () => {
  const countries = CountryLookup.fromInstalledPackage();
  it("finds IPv4, IPv6 and IPv4-mapped addresses; private ones are unknown", () => {
    expect(countries.country("81.2.69.142")).toBe("GB");
    expect(countries.country("::ffff:81.2.69.142")).toBe("GB");
    expect(countries.country("2a01:4f8::1")).toBe("DE");
    expect(countries.country("8.8.8.8")).toBe("US");
    expect(countries.country("10.1.2.3")).toBeNull();
    expect(countries.country("127.0.0.1")).toBeNull();
    expect(countries.country("not an ip")).toBeNull();
  });
});

describe("user agents and referrers", () => {
  const classifier = new UserAgentClassifier();
  it("classify device, browser, OS and bots", () => {
    expect(classifier.classify(SAFARI_IPHONE)).toEqual({ deviceType: "mobile", browser: "Mobile Safari", os: "iOS", isBot: false });
    expect(classifier.classify(GOOGLEBOT)).toMatchObject({ deviceType: "bot", isBot: true });
    expect(classifier.classify("")).toEqual({ deviceType: "unknown", browser: null, os: null, isBot: true });
  });

  it("reduce a referrer to its host without www.", () => {
    expect(referrerDomain("https://www.News.example/a?b")).toBe("news.example");
    expect(referrerDomain("garbage")).toBeNull();
    expect(referrerDomain(undefined)).toBeNull();
  });
});

describe("visitor fingerprints", () => {
  it("depend on salt, link, address and user agent, and never contain the address", () => {
    const salt = Buffer.alloc(32, 1);
    const a = visitorFingerprint(salt, 1, "81.2.69.142", "ua");
    expect(a).toHaveLength(22);
    expect(a).not.toContain("81.2.69.142");
    expect(visitorFingerprint(salt, 1, "81.2.69.142", "ua")).toBe(a);
    expect(visitorFingerprint(salt, 2, "81.2.69.142", "ua")).not.toBe(a);
    expect(visitorFingerprint(Buffer.alloc(32, 2), 1, "81.2.69.142", "ua")).not.toBe(a);
  });
});

describe("link state", () => {
  const now = new Date("2026-06-01T00:00:00Z");
  it("orders deleted, expired, click limit", () => {
    const base = { deletedAt: null, expiresAt: null, maxClicks: null, clicks: 0 };
    expect(linkState(base, now)).toBe("active");
    expect(linkState({ ...base, maxClicks: 2, clicks: 1 }, now)).toBe("active");
    expect(linkState({ ...base, maxClicks: 2, clicks: 2 }, now)).toBe("click_limit_reached");
    expect(linkState({ ...base, expiresAt: now, maxClicks: 2, clicks: 2 }, now)).toBe("expired");
    expect(linkState({ ...base, expiresAt: new Date(now.getTime() + 1) }, now)).toBe("active");
    expect(linkState({ ...base, deletedAt: now, expiresAt: now }, now)).toBe("deleted");
  });
});

describe("stats windows", () => {
  it("default to the link's creation day (at most 366 days back) through today, both included", () => {
    const now = new Date("2026-03-02T12:00:00Z");
    expect(resolveWindow(new Date("2026-03-01T08:00:00Z"), now)).toEqual({ from: "2026-03-01", to: "2026-03-02" });
    expect(resolveWindow(new Date("2020-01-01T00:00:00Z"), now)).toEqual({ from: "2025-03-02", to: "2026-03-02" });
    expect(daysOf(resolveWindow(new Date("2020-01-01T00:00:00Z"), now))).toHaveLength(366);
    expect(resolveWindow(new Date("2026-03-01T08:00:00Z"), now, "2026-02-27", "2026-03-01")).toEqual({ from: "2026-02-27", to: "2026-03-01" });
  });

  it("list every day, zero-filled, across month ends", () => {
    expect(daysOf({ from: "2026-02-27", to: "2026-03-01" })).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"]);
    expect(fillSeries({ from: "2026-03-01", to: "2026-03-02" }, new Map([["2026-03-02", 5]]))).toEqual([
      { date: "2026-03-01", count: 0 },
      { date: "2026-03-02", count: 5 },
    ]);
  });

  it("accept only real calendar dates", () => {
    expect(isCalendarDate("2024-02-29")).toBe(true);
    expect(isCalendarDate("2026-02-29")).toBe(false);
    expect(isCalendarDate("2026-11-01T00:00:00Z")).toBe(false);
    expect(isCalendarDate("yesterday")).toBe(false);
  });
});

describe("LruCache", () => {
  it("evicts the least recently used entry and expires by time", () => {
    let clock = 0;
    const cache = new LruCache<number>(2, () => clock);
    cache.set("a", 1, 100);
    cache.set("b", 2, 100);
    cache.get("a");
    cache.set("c", 3, 100);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    clock = 100;
    expect(cache.get("a")).toBeUndefined();
  });

  it("keeps an entry that is used while many others come and go, within its size", () => {
    const cache = new LruCache<number>(100);
    cache.set("hot", 0, 60_000);
    for (let i = 0; i < 10_000; i++) {
      cache.set(`cold-${i}`, i, 60_000);
      if (i % 10 === 0) expect(cache.get("hot")).toBe(0);
    }
    expect(cache.size).toBe(100);
    expect(cache.get("cold-9999")).toBe(9999);
    expect(cache.get("cold-9899")).toBeUndefined();
  });
});

describe("StringPool", () => {
  it("holds one entry per distinct string and starts afresh when full", () => {
    const pool = new StringPool(2);
    expect(pool.intern(["Mozilla", "/5.0"].join(""))).toBe("Mozilla/5.0");
    expect(pool.intern("Mozilla/5.0")).toBe("Mozilla/5.0");
    expect(pool.size).toBe(1);
    pool.intern("b");
    expect(pool.size).toBe(2);
    expect(pool.intern("c")).toBe("c"); // full: it starts again with "c"
    expect(pool.size).toBe(1);
  });
});

describe("UtcDays", () => {
  it("gives the UTC day of epoch milliseconds across midnight, both ways", () => {
    const days = new UtcDays();
    const midnight = Date.parse("2026-03-01T00:00:00Z");
    expect(days.of(midnight - 1)).toBe("2026-02-28");
    expect(days.of(midnight)).toBe("2026-03-01");
    expect(days.of(midnight + 86_399_999)).toBe("2026-03-01");
    expect(days.of(midnight + 86_400_000)).toBe("2026-03-02");
    expect(days.of(midnight - 1)).toBe("2026-02-28");
    expect(days.of(0)).toBe("1970-01-01");
  });
});

describe("ClickBuffer", () => {
  const click = (linkId: number): RawClick => ({ linkId, at: 0, ip: "1.1.1.1", userAgent: "", referer: undefined, counted: false });

  it("keeps a failed batch for the next flush and writes it with later clicks", async () => {
    const written: number[][] = [];
    let failNext = true;
    const buffer = new ClickBuffer({
      batchSize: 3,
      maxBuffered: 100,
      write: async (batch) => {
        if (failNext) {
          failNext = false;
          throw new Error("database down");
        }
        written.push(batch.map((c) => c.linkId));
      },
    });
    buffer.push(click(1));
    buffer.push(click(2));
    await buffer.flush();
    expect(written).toEqual([]);
    expect(buffer.size).toBe(2);
    buffer.push(click(3)); // a full batch starts a write by itself
    await buffer.flush();
    expect(written).toEqual([[1, 2, 3]]);
    expect(buffer.writtenTotal).toBe(3);
  });

  it("drops and counts clicks beyond its cap instead of growing without bound", () => {
    const buffer = new ClickBuffer({ batchSize: 100, maxBuffered: 2, write: async () => {} });
    for (let i = 0; i < 5; i++) buffer.push(click(i));
    expect(buffer.size).toBe(2);
    expect(buffer.droppedTotal).toBe(3);
  });
});

describe("verifyCname", () => {
  it("accepts the edge host in any case with a trailing dot and explains failures", async () => {
    const resolver = (answer: string[] | Error) => ({ resolveCname: async () => (answer instanceof Error ? Promise.reject(answer) : answer) });
    expect(await verifyCname(resolver(["EDGE.example."]), "go.x.example", "edge.example")).toEqual({ verified: true });
    expect(await verifyCname(resolver(["other.example"]), "go.x.example", "edge.example")).toEqual({
      verified: false,
      reason: "the CNAME of go.x.example points at other.example, not at edge.example",
    });
    const servfail = Object.assign(new Error("x"), { code: "ESERVFAIL" });
    expect(await verifyCname(resolver(servfail), "go.x.example", "edge.example")).toEqual({
      verified: false,
      reason: "the DNS lookup of go.x.example failed (ESERVFAIL)",
    });
  });
});
