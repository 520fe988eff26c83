import { describe, expect, it } from "vitest";
import { startService } from "@apiplat/testing";
import service from "../src/service.js";

/** A link made on a shortener started without SHORT_LINK_BASE_URL, and how its own path answers on `host`. */
async function linkWithDefaultBase(env: Record<string, string>, host: string) {
  const started = await startService(service, { env, settings: { clickFlushMs: 600_000 } });
  try {
    const { headers } = await started.subscribe("MEGA");
    const created = await started.app.inject({ method: "POST", url: "/shorten", headers, payload: { url: "https://example.com/landing" } });
    expect(created.statusCode).toBe(201);
    const link = created.json().data as { code: string; short_url: string };
    const followed = await started.app.inject({ method: "GET", url: new URL(link.short_url).pathname, headers: { host } });
    return { link, followed };
  } finally {
    await started.close();
  }
}

describe("short_url by default", () => {
  it("is the service's own port on this machine on the local start, and it redirects there", async () => {
    const { link, followed } = await linkWithDefaultBase({}, "127.0.0.1:3001");
    expect(link.short_url).toBe(`http://127.0.0.1:3001/${link.code}`);
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toBe("https://example.com/landing");
  });

  it("is the public host over https when PUBLIC_DOMAIN is set", async () => {
    const { link, followed } = await linkWithDefaultBase({ PUBLIC_DOMAIN: "short-example.test" }, "url-shortener.short-example.test");
    expect(link.short_url).toBe(`https://url-shortener.short-example.test/${link.code}`);
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toBe("https://example.com/landing");
  });
});

describe("links to the shortener itself", () => {
  it("are loops however its address is spelt: compared by resolved address and port, not by text", async () => {
    // Loopback allowed as a destination (as on a machine that runs its own targets): only the loop check refuses these.
    const started = await startService(service, { env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8,::1/128" }, settings: { clickFlushMs: 600_000 } });
    try {
      const { headers } = await started.subscribe("MEGA");
      const shorten = (url: string) => started.app.inject({ method: "POST", url: "/shorten", headers, payload: { url } });
      for (const url of [
        "http://[::ffff:7f00:1]:3001/abcdefg",
        "http://127.0.0.2:3001/abcdefg",
        "http://2130706433:3001/x",
        "http://[::1]:3001/x",
        "http://127.1:3001/x",
      ]) {
        const res = await shorten(url);
        expect([res.statusCode, res.json().error?.details], url).toEqual([422, [{ field: "url", issue: "flagged: SHORT_LINK_LOOP" }]]);
      }
    } finally {
      await started.close();
    }
  });
});
