import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSubscriber } from "@apiplat/testing";
import { startService, type StartedService } from "@apiplat/testing";
import service from "../src/service.js";
import { SHORT_HOST, TEST_SETTINGS } from "./helpers.js";

/** DNS of the internet is not reachable from tests: CNAME answers come from this table. */
const cnames = new Map<string, string[] | "ENODATA">();
const resolver = {
  async resolveCname(host: string): Promise<string[]> {
    const answer = cnames.get(host) ?? "ENODATA";
    if (answer === "ENODATA") throw Object.assign(new Error(`queryCname ENODATA ${host}`), { code: "ENODATA" });
    return answer;
  },
};

let h: StartedService;
let pro: TestSubscriber;

beforeAll(async () => {
  h = await startService(service, { settings: TEST_SETTINGS, inject: { dnsResolver: resolver } });
  pro = await h.platform.subscribe("url-shortener", "PRO");
});
afterAll(async () => h?.close());

function post(url: string, payload: Record<string, unknown>, subscriber = pro) {
  return h.app.inject({ method: "POST", url, headers: subscriber.headers, payload });
}

describe("custom domains", () => {
  it("are refused on BASIC with 403 naming the plan needed", async () => {
    const basic = await h.platform.subscribe("url-shortener", "BASIC");
    const res = await post("/domains", { domain: "go.basic.example" }, basic);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: "PLAN_UPGRADE_REQUIRED",
      message: "Custom domains need the PRO plan or higher; your plan is BASIC.",
    });
    const link = await post("/shorten", { url: "https://example.com/", domain: "go.basic.example" }, basic);
    expect(link.statusCode).toBe(403);
  });

  it("are verified by their CNAME pointing at the edge host, and re-verified on demand", async () => {
    cnames.set("go.brand.example", ["Edge.URL-Shortener.api.local."]);
    const verified = await post("/domains", { domain: "GO.Brand.example" });
    expect(verified.statusCode).toBe(201);
    expect(verified.json().data).toMatchObject({
      domain: "go.brand.example",
      status: "verified",
      cname_target: "edge.url-shortener.api.local",
      last_check_error: null,
    });

    cnames.set("links.other.example", ["elsewhere.example"]);
    const pending = await post("/domains", { domain: "links.other.example" });
    expect(pending.statusCode).toBe(201);
    expect(pending.json().data).toMatchObject({
      status: "pending",
      verified_at: null,
      last_check_error: "the CNAME of links.other.example points at elsewhere.example, not at edge.url-shortener.api.local",
    });
    const refused = await post("/shorten", { url: "https://example.com/", domain: "links.other.example" });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.details).toEqual([{ field: "domain", issue: "must be a verified custom domain of your account" }]);

    cnames.set("links.other.example", ["edge.url-shortener.api.local"]);
    const reverified = await post("/domains/links.other.example/verify", {});
    expect(reverified.statusCode).toBe(200);
    expect(reverified.json().data.status).toBe("verified");

    const none = await post("/domains", { domain: "no-cname.example" });
    expect(none.json().data).toMatchObject({ status: "pending", last_check_error: "no-cname.example has no CNAME record" });

    const list = await h.app.inject({ method: "GET", url: "/domains", headers: pro.headers });
    expect(list.json().data.domains.map((d: { domain: string; status: string }) => [d.domain, d.status])).toEqual([
      ["go.brand.example", "verified"],
      ["links.other.example", "verified"],
      ["no-cname.example", "pending"],
    ]);
  });

  it("belong to one account only and must be valid host names", async () => {
    const other = await h.platform.subscribe("url-shortener", "ULTRA");
    const taken = await post("/domains", { domain: "go.brand.example" }, other);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe("CONFLICT");
    const foreignVerify = await post("/domains/go.brand.example/verify", {}, other);
    expect(foreignVerify.statusCode).toBe(404);
    const foreignLink = await post("/shorten", { url: "https://example.com/", domain: "go.brand.example" }, other);
    expect(foreignLink.statusCode).toBe(422);
    for (const domain of ["localhost", "bad_label.example", "10.0.0.1", "-x.example"]) {
      const res = await post("/domains", { domain }, other);
      expect(res.statusCode, domain).toBe(400);
      expect(res.json().error.details[0].field).toBe("domain");
    }
  });

  it("carry their own links, resolved only under their Host", async () => {
    const onDomain = await post("/shorten", { url: "https://example.com/brand-promo", alias: "promo", domain: "go.brand.example" });
    expect(onDomain.statusCode).toBe(201);
    expect(onDomain.json().data).toMatchObject({ code: "promo", domain: "go.brand.example", short_url: "https://go.brand.example/promo" });
    const onDefault = await post("/shorten", { url: "https://example.com/default-promo", alias: "promo" });
    expect(onDefault.statusCode).toBe(201);

    const viaDomain = await h.app.inject({ method: "GET", url: "/promo", headers: { host: "go.brand.example" } });
    expect(viaDomain.statusCode).toBe(302);
    expect(viaDomain.headers.location).toBe("https://example.com/brand-promo");
    const viaDefault = await h.app.inject({ method: "GET", url: "/promo", headers: { host: SHORT_HOST } });
    expect(viaDefault.headers.location).toBe("https://example.com/default-promo");

    const only = await post("/shorten", { url: "https://example.com/only-brand", alias: "only-brand", domain: "go.brand.example" });
    expect(only.statusCode).toBe(201);
    const wrongHost = await h.app.inject({ method: "GET", url: "/only-brand", headers: { host: SHORT_HOST, accept: "application/json" } });
    expect(wrongHost.statusCode).toBe(404);

    const resolved = await h.app.inject({ method: "GET", url: "/resolve/promo?domain=go.brand.example", headers: pro.headers });
    expect(resolved.json().data.url).toBe("https://example.com/brand-promo");
    const resolvedDefault = await h.app.inject({ method: "GET", url: "/resolve/promo", headers: pro.headers });
    expect(resolvedDefault.json().data.url).toBe("https://example.com/default-promo");
  });

  it("cannot be shortened themselves (redirect loop)", async () => {
    const res = await post("/shorten", { url: "https://go.brand.example/promo" });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toEqual([{ field: "url", issue: "flagged: SHORT_LINK_LOOP" }]);
  });
});
