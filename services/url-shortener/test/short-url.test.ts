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
