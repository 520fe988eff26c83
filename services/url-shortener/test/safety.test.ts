import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSubscriber } from "@apiplat/testing";
import { startService, type StartedService } from "@apiplat/testing";
import service from "../src/service.js";
import { putFallback, TEST_SETTINGS } from "./helpers.js";

/** A local server speaking the Safe Browsing v4 threatMatches:find shape. */
interface FakeSafeBrowsing {
  server: Server;
  endpoint: string;
  requests: Array<{
    url: string;
    body: {
      client: unknown;
      threatInfo: { threatTypes: string[]; platformTypes: string[]; threatEntryTypes: string[]; threatEntries: Array<{ url: string }> };
    };
  }>;
  mode: "normal" | "slow" | "error";
}

async function startSafeBrowsing(): Promise<FakeSafeBrowsing> {
  const fake = { requests: [], mode: "normal" } as unknown as FakeSafeBrowsing;
  fake.server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const body = JSON.parse(raw);
      fake.requests.push({ url: req.url ?? "", body });
      if (fake.mode === "error") return res.writeHead(500).end("{}");
      const answer = () => {
        const matches = body.threatInfo.threatEntries
          .filter((entry: { url: string }) => entry.url.includes("sb-"))
          .map((entry: { url: string }) => ({
            threatType: entry.url.includes("sb-phish") ? "SOCIAL_ENGINEERING" : "MALWARE",
            platformType: "ANY_PLATFORM",
            threat: { url: entry.url },
            cacheDuration: "300s",
            threatEntryType: "URL",
          }));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(matches.length > 0 ? { matches } : {}));
      };
      if (fake.mode === "slow") setTimeout(answer, 1_500);
      else answer();
    });
  });
  await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
  fake.endpoint = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v4/threatMatches:find`;
  return fake;
}

const fixtures = new URL("./fixtures/", import.meta.url);
let sb: FakeSafeBrowsing;
let h: StartedService;
let user: TestSubscriber;
let hostsFile: string;

beforeAll(async () => {
  sb = await startSafeBrowsing();
  const dir = await mkdtemp(join(tmpdir(), "url-shortener-blocklist-"));
  hostsFile = join(dir, "hosts.txt");
  await writeFile(hostsFile, await readFile(new URL("hosts.txt", fixtures)));
  h = await startService(service, {
    settings: {
      ...TEST_SETTINGS,
      safeBrowsingApiKey: "test-key",
      safeBrowsingEndpoint: sb.endpoint,
      safeBrowsingTimeoutMs: 500,
      safeBrowsingFailOpen: false,
      blocklistFiles: [hostsFile, new URL("urlhaus.csv", fixtures).pathname],
      blocklistReloadMs: 100,
    },
  });
  user = await h.platform.subscribe("url-shortener", "MEGA");
});
afterAll(async () => {
  await h?.close();
  sb?.server.close();
});

function shorten(payload: Record<string, unknown>) {
  return h.app.inject({ method: "POST", url: "/shorten", headers: user.headers, payload });
}

describe("safety check on creation", () => {
  it("refuses blocklisted hosts and their subdomains with 422 UNSAFE_URL and creates nothing", async () => {
    for (const url of ["http://malware.example/x", "https://www.malware.example/", "http://phishing.example/login", "http://a.tracker.example.net/"]) {
      const res = await shorten({ url });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().error).toMatchObject({
        code: "UNSAFE_URL",
        message: "The url is on a blocklist as BLOCKLISTED_HOST; the link was not created.",
        details: [{ field: "url", issue: "flagged: BLOCKLISTED_HOST" }],
      });
    }
    const links = await h.app.inject({ method: "GET", url: "/links", headers: user.headers });
    expect(links.json().data.links).toEqual([]);
  });

  it("refuses URLhaus-listed URLs exactly, naming the feed's threat", async () => {
    const listed = await shorten({ url: "http://files.example.org/payload.exe" });
    expect(listed.statusCode).toBe(422);
    expect(listed.json().error.details).toEqual([{ field: "url", issue: "flagged: MALWARE_DOWNLOAD" }]);
    const quotedComma = await shorten({ url: "https://cdn.example.org/a,b.js" });
    expect(quotedComma.statusCode).toBe(422);
    expect((await shorten({ url: "http://files.example.org/readme.txt" })).statusCode).toBe(201);
  });

  it("refuses links to the shortener itself (redirect loops)", async () => {
    for (const url of ["http://url-shortener.api.local:3001/abcdefg", "https://edge.url-shortener.api.local/x"]) {
      const res = await shorten({ url });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().error.details).toEqual([{ field: "url", issue: "flagged: SHORT_LINK_LOOP" }]);
    }
  });

  it("asks Safe Browsing with the v4 request shape and refuses what it flags", async () => {
    sb.requests.length = 0;
    const res = await shorten({ url: "https://sb-phish.example.com/login" });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({
      code: "UNSAFE_URL",
      message: "The url is flagged by Google Safe Browsing as SOCIAL_ENGINEERING; the link was not created.",
    });
    expect(sb.requests).toHaveLength(1);
    expect(sb.requests[0].url).toBe("/v4/threatMatches:find?key=test-key");
    expect(sb.requests[0].body).toEqual({
      client: { clientId: "apiplat-url-shortener", clientVersion: "1.0.0" },
      threatInfo: {
        threatTypes: ["MALWARE", "SOCIAL_ENGINEERING", "UNWANTED_SOFTWARE", "POTENTIALLY_HARMFUL_APPLICATION"],
        platformTypes: ["ANY_PLATFORM"],
        threatEntryTypes: ["URL"],
        threatEntries: [{ url: "https://sb-phish.example.com/login" }],
      },
    });
    const fallback = await shorten({ url: "https://example.com/fine", fallback_url: "https://sb-malware.example.com/" });
    expect(fallback.statusCode).toBe(422);
    expect(fallback.json().error.details).toEqual([{ field: "fallback_url", issue: "flagged: MALWARE" }]);
    const settings = await putFallback(h.app, user.headers, "https://sb-malware.example.com/");
    expect(settings.statusCode).toBe(422);
  });

  it("checks a whole bulk request in one Safe Browsing call; flagged items fail alone", async () => {
    sb.requests.length = 0;
    const res = await h.app.inject({
      method: "POST",
      url: "/bulk",
      headers: user.headers,
      payload: { urls: ["https://example.com/ok-1", "https://sb-malware.example.com/x", "http://malware.example/", "https://example.com/ok-2"] },
    });
    expect(res.statusCode).toBe(200);
    const results = res.json().data.results;
    expect(results.map((r: { status: string }) => r.status)).toEqual(["created", "error", "error", "created"]);
    expect(results[1].error).toMatchObject({ status: 422, code: "UNSAFE_URL", details: [{ field: "url", issue: "flagged: MALWARE" }] });
    expect(results[2].error).toMatchObject({ status: 422, code: "UNSAFE_URL", details: [{ field: "url", issue: "flagged: BLOCKLISTED_HOST" }] });
    expect(sb.requests).toHaveLength(1);
    expect(sb.requests[0].body.threatInfo.threatEntries.map((e) => e.url)).toEqual([
      "https://example.com/ok-1",
      "https://sb-malware.example.com/x",
      "https://example.com/ok-2",
    ]);
  });

  it("fails closed: when Safe Browsing times out or errors, the link is not created (503)", async () => {
    const messages = { slow: "no answer within 500 ms", error: "answered HTTP 500" };
    try {
      for (const mode of ["slow", "error"] as const) {
        sb.mode = mode;
        const res = await shorten({ url: `https://example.com/while-${mode}` });
        expect(res.statusCode, mode).toBe(503);
        expect(res.json().error).toMatchObject({
          code: "UNAVAILABLE",
          message: `The URL safety check is unavailable (Safe Browsing ${messages[mode]}); the link was not created. Retry shortly.`,
        });
      }
    } finally {
      sb.mode = "normal";
    }
  });

  it("reloads the blocklist file when it changes", async () => {
    expect((await shorten({ url: "https://newly-bad.example/" })).statusCode).toBe(201);
    await writeFile(hostsFile, "malware.example\nnewly-bad.example\n");
    let refused = false;
    for (let i = 0; i < 50 && !refused; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      refused = (await shorten({ url: "https://newly-bad.example/again" })).statusCode === 422;
    }
    expect(refused).toBe(true);
    // phishing.example was dropped from the file, so it is allowed again.
    expect((await shorten({ url: "http://phishing.example/login" })).statusCode).toBe(201);
  });
});

describe("SIGHUP", () => {
  it("re-reads the blocklist at once, whatever runs the service (main.ts or the all-in-one start)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "url-shortener-sighup-"));
    const file = join(dir, "hosts.txt");
    await writeFile(file, "malware.example\n");
    const quiet = await startService(service, { settings: { ...TEST_SETTINGS, blocklistFiles: [file], blocklistReloadMs: 0 } });
    try {
      const subscriber = await quiet.platform.subscribe("url-shortener", "PRO");
      const shortenHere = (url: string) => quiet.app.inject({ method: "POST", url: "/shorten", headers: subscriber.headers, payload: { url } });
      expect((await shortenHere("https://hup-bad.example/")).statusCode).toBe(201);
      await writeFile(file, "malware.example\nhup-bad.example\n");
      await quiet.app.serviceSignals.get("SIGHUP")!();
      expect((await shortenHere("https://hup-bad.example/again")).statusCode).toBe(422);
    } finally {
      await quiet.close();
    }
  });
});

describe("fail-open policy", () => {
  it("creates the link when Safe Browsing does not answer and the policy is open", async () => {
    const open = await startService(service, {
      settings: { ...TEST_SETTINGS, safeBrowsingApiKey: "k", safeBrowsingEndpoint: sb.endpoint, safeBrowsingTimeoutMs: 300, safeBrowsingFailOpen: true },
    });
    try {
      const subscriber = await open.platform.subscribe("url-shortener", "PRO");
      sb.mode = "slow";
      const res = await open.app.inject({ method: "POST", url: "/shorten", headers: subscriber.headers, payload: { url: "https://example.com/open" } });
      expect(res.statusCode).toBe(201);
    } finally {
      sb.mode = "normal";
      await open.close();
    }
  });
});
