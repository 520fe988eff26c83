import { describe, expect, it } from "vitest";
import { emailUnderTest } from "./helpers.js";
import { FakeDns } from "./fake-dns.js";

const dns = new FakeDns();

const email = emailUnderTest({}, { inject: { dnsResolver: dns } });

const call = (method: "GET" | "POST" | "DELETE", url: string, payload?: object, headers = email.caller.headers) =>
  email.started.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe("sending domains", () => {
  it("registers a domain with an SPF include, a DKIM key under a selector and a return-path CNAME", async () => {
    const res = await call("POST", "/domains", { domain: "Example.ORG." });
    expect(res.statusCode).toBe(201);
    const domain = res.json().data;
    expect(domain).toMatchObject({ domain: "example.org", status: "pending", verified_at: null });
    expect(domain.dkim_selector).toMatch(/^es\d{6}$/);
    const [spf, dkim, returnPath] = domain.records;
    expect(spf).toEqual({ purpose: "spf", type: "TXT", name: "example.org", value: "v=spf1 include:_spf.mail.api.local ~all", verified: false });
    expect(dkim).toMatchObject({ purpose: "dkim", type: "TXT", name: `${domain.dkim_selector}._domainkey.example.org`, verified: false });
    expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA[A-Za-z0-9+/]+=*$/);
    expect(returnPath).toEqual({ purpose: "return_path", type: "CNAME", name: "bounces.example.org", value: "bounces.mail.api.local", verified: false });
    expect((await call("POST", "/domains", { domain: "example.org" })).statusCode).toBe(409);
    // The private key is stored encrypted, never in clear.
    const { rows } = await email.started.platform.deps.db.query<{ k: string }>(
      "SELECT dkim_private_key_enc AS k FROM email_domains WHERE domain = 'example.org'",
    );
    expect(rows[0].k).toMatch(/^v1\./);
    expect(rows[0].k).not.toContain("PRIVATE KEY");
  });

  it("stays pending while DNS lacks the records, and is verified once SPF and DKIM are published", async () => {
    const before = await call("POST", "/domains/example.org/verify");
    expect(before.json().data.status).toBe("pending");
    const records = (await call("GET", "/domains/example.org")).json().data.records;
    dns.txt.set("example.org", [["v=spf1 include:_spf.mail.api.local ~all"]]);
    const spfOnly = await call("POST", "/domains/example.org/verify");
    expect(spfOnly.json().data.records.map((r: { verified: boolean }) => r.verified)).toEqual([true, false, false]);
    dns.publish(records.slice(1, 2));
    const verified = await call("POST", "/domains/example.org/verify");
    expect(verified.json().data).toMatchObject({ status: "verified" });
    expect(verified.json().data.records.map((r: { verified: boolean }) => r.verified)).toEqual([true, true, false]);
    expect(Date.parse(verified.json().data.verified_at)).not.toBeNaN();
  });

  it("does not count a second SPF record or another key as published", async () => {
    const created = (await call("POST", "/domains", { domain: "two-spf.example" })).json().data;
    dns.txt.set("two-spf.example", [["v=spf1 include:_spf.mail.api.local ~all"], ["v=spf1 -all"]]);
    dns.txt.set(created.records[1].name, [["v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAsomethingelse"]]);
    const res = await call("POST", "/domains/two-spf.example/verify");
    expect(res.json().data.records.map((r: { verified: boolean }) => r.verified)).toEqual([false, false, false]);
  });

  it("validates the name, keeps domains per account, lists and deletes", async () => {
    expect((await call("POST", "/domains", { domain: "not a domain" })).json().error.details[0].field).toBe("domain");
    expect((await call("POST", "/domains", { domain: "mail.api.local" })).statusCode).toBe(409);
    const other = await email.started.subscribe("PRO");
    expect((await call("GET", "/domains/example.org", undefined, other.headers)).statusCode).toBe(404);
    expect((await call("GET", "/domains")).json().data.domains.map((d: { domain: string }) => d.domain)).toEqual(["example.org", "two-spf.example"]);
    expect((await call("DELETE", "/domains/two-spf.example")).statusCode).toBe(204);
    expect((await call("GET", "/domains/two-spf.example")).statusCode).toBe(404);
  });
});
