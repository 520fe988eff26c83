import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createTestPlatform, UnknownData, type TestPlatform } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import { SERVICE_NAMES } from "@apiplat/config";
import { buildAdminApp } from "../src/app.js";
import * as S from "../src/schemas.js";

/** A platform that deploys every service but two. */
const DEPLOYED = SERVICE_NAMES.filter((name) => name !== "news" && name !== "embeddings");

const TOKEN = "admin-token-for-tests";
const auth = { authorization: `Bearer ${TOKEN}` };
let platform: TestPlatform;
let app: ServiceApp;

beforeAll(async () => {
  platform = await createTestPlatform();
  app = await buildAdminApp({ ...platform.deps, adminToken: TOKEN, deployed: DEPLOYED });
});
afterAll(async () => {
  await app.close();
  await platform.close();
});

const admin = client(
  {
    get app() {
      return app;
    },
  },
  auth,
);

describe("admin API", () => {
  it("requires the admin token", async () => {
    const missing = await admin.get(UnknownData, "/admin/accounts", {});
    expect(missing.status).toBe(401);
    expect(missing.error.code).toBe("MISSING_ADMIN_TOKEN");
    const wrong = await admin.get(UnknownData, "/admin/accounts", { authorization: "Bearer nope" });
    expect(wrong.status).toBe(403);
    expect(wrong.error.code).toBe("INVALID_ADMIN_TOKEN");
  });

  it("reads the Bearer scheme name in any case (RFC 9110)", async () => {
    for (const scheme of ["bearer", "BEARER", "BeArEr"]) {
      const res = await admin.get(S.AccountListSchema, "/admin/accounts", { authorization: `${scheme} ${TOKEN}` });
      expect(res.status).toBe(200);
    }
    const glued = await admin.get(UnknownData, "/admin/accounts", { authorization: `Bearer${TOKEN}` });
    expect(glued.status).toBe(403);
  });

  it("creates an account, subscribes it, issues and revokes a key", async () => {
    const created = await admin.post(S.CreatedAccountSchema, "/admin/accounts", { name: "Acme" });
    expect(created.status).toBe(201);
    const account = created.data;
    expect(Object.keys(account).sort()).toEqual(["created_at", "id", "name"]);
    expect(account.name).toBe("Acme");

    const all = await admin.put(S.SubscriptionsSchema, `/admin/accounts/${account.id}/subscriptions/*`, { plan: "PRO" });
    expect(all.data.subscriptions).toHaveLength(16);
    const one = await admin.put(S.SubscriptionsSchema, `/admin/accounts/${account.id}/subscriptions/geocoding`, { plan: "MEGA" });
    expect(one.data.subscriptions).toEqual([expect.objectContaining({ service: "geocoding", plan: "MEGA" })]);

    const key = (await admin.post(S.NewKeySchema, `/admin/accounts/${account.id}/keys`, undefined)).data;
    expect(key.key).toMatch(/^gk_[A-Za-z0-9_-]{32}$/);
    const grant = await platform.accounts.grantForKey((await import("@apiplat/gateway-auth")).hashApiKey(key.key), "geocoding");
    expect(grant).toMatchObject({ accountId: account.id, active: true, plan: "MEGA" });

    const shown = (await admin.get(S.AccountDetailSchema, `/admin/accounts/${account.id}`)).data;
    expect(shown.keys).toEqual([expect.objectContaining({ id: key.id, status: "active", key_prefix: key.key.slice(0, 7) })]);
    expect(JSON.stringify(shown)).not.toContain(key.key);

    const revoked = await admin.delete(S.KeySchema, `/admin/keys/${key.id}`);
    expect(revoked.data).toMatchObject({ id: key.id, status: "revoked" });
    expect((await admin.get(S.AccountListSchema, "/admin/accounts")).data.accounts.map((a) => a.id)).toContain(account.id);
  });

  it("announces a revoked key and a changed plan to every service process (Redis pub/sub)", async () => {
    const heard: unknown[] = [];
    const { GRANT_CHANGES_CHANNEL } = await import("@apiplat/gateway-auth");
    const unsubscribe = await platform.deps.kv.subscribe(GRANT_CHANGES_CHANNEL, (message) => heard.push(JSON.parse(message)));
    const account = (await admin.post(S.CreatedAccountSchema, "/admin/accounts", { name: "Announced" })).data;
    await admin.put(S.SubscriptionsSchema, `/admin/accounts/${account.id}/subscriptions/geocoding`, { plan: "BASIC" });
    const key = (await admin.post(S.NewKeySchema, `/admin/accounts/${account.id}/keys`, undefined)).data;
    await admin.delete(S.KeySchema, `/admin/keys/${key.id}`);
    for (let i = 0; i < 100 && heard.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(heard).toEqual([{ accountId: account.id }, { keyId: key.id }]);
    await unsubscribe();
  });

  it("answers 404 for unknown accounts and keys, 400 for bad plans and services", async () => {
    const ghost = "00000000-0000-4000-8000-000000000000";
    expect((await admin.post(UnknownData, `/admin/accounts/${ghost}/keys`, undefined)).status).toBe(404);
    expect((await admin.delete(UnknownData, `/admin/keys/${ghost}`)).status).toBe(404);
    const account = (await admin.post(S.CreatedAccountSchema, "/admin/accounts", { name: "B" })).data;
    const badPlan = await admin.put(UnknownData, `/admin/accounts/${account.id}/subscriptions/geocoding`, { plan: "GOLD" });
    expect(badPlan.error.details).toEqual([{ field: "plan", issue: "must be one of: BASIC, PRO, ULTRA, MEGA" }]);
    expect((await admin.put(UnknownData, `/admin/accounts/${account.id}/subscriptions/weather`, { plan: "PRO" })).status).toBe(400);
    expect((await admin.post(UnknownData, "/admin/accounts", { name: "" })).status).toBe(400);
  });

  it("reports usage and invoices for a month", async () => {
    const account = (await admin.post(S.CreatedAccountSchema, "/admin/accounts", { name: "Billing" })).data;
    await admin.put(S.SubscriptionsSchema, `/admin/accounts/${account.id}/subscriptions/time-zone`, { plan: "ULTRA" });
    await admin.put(S.SubscriptionsSchema, `/admin/accounts/${account.id}/subscriptions/text-toolkit`, { plan: "BASIC" });
    const key = (await admin.post(S.NewKeySchema, `/admin/accounts/${account.id}/keys`, undefined)).data;
    await platform.deps.db.query(
      `INSERT INTO usage_counts (month, account_id, key_id, service, endpoint, requests) VALUES
        ('2026-10', $1, $2, 'time-zone', 'GET /lookup', 100500), ('2026-10', $1, $2, 'time-zone', 'GET /list', 700),
        ('2026-10', $1, $2, 'text-toolkit', 'POST /hash', 100)`,
      [account.id, key.id],
    );
    const usage = (await admin.get(S.UsageSchema, `/admin/usage?account_id=${account.id}&month=2026-10`)).data;
    expect(usage.services).toEqual([
      { service: "text-toolkit", plan: "BASIC", requests: 100, included: 100, overage: 0, endpoints: [{ endpoint: "POST /hash", requests: 100 }] },
      {
        service: "time-zone",
        plan: "ULTRA",
        requests: 101_200,
        included: 100_000,
        overage: 1_200,
        endpoints: [
          { endpoint: "GET /list", requests: 700 },
          { endpoint: "GET /lookup", requests: 100_500 },
        ],
      },
    ]);
    const bill = (await admin.get(S.InvoiceSchema, `/admin/invoices?account_id=${account.id}&month=2026-10`)).data;
    expect(bill.lines.map((l) => [l.service, l.overage_amount, l.total])).toEqual([
      ["text-toolkit", "0.00", "0.00"],
      ["time-zone", "2.40", "32.39"],
    ]);
    expect(bill.total).toBe("32.39");
    expect((await admin.get(UnknownData, `/admin/usage?account_id=${account.id}&month=2026-13`)).error.details?.[0].field).toBe("month");
  });
});

describe("admin CLI", () => {
  it("never subscribes to or bills a service that is not deployed", async () => {
    const account = (await admin.post(S.CreatedAccountSchema, "/admin/accounts", { name: "Billing" })).data;
    const refused = await admin.put(UnknownData, `/admin/accounts/${account.id}/subscriptions/news`, { plan: "PRO" });
    expect(refused.status).toBe(400);
    expect(refused.error.details).toEqual([{ field: "service", issue: expect.stringContaining("is not deployed on this platform") }]);
    await admin.put(S.SubscriptionsSchema, `/admin/accounts/${account.id}/subscriptions/*`, { plan: "PRO" });
    // A subscription left from a time the service was deployed is kept but not billed.
    await platform.accounts.subscribe(account.id, ["embeddings"], "PRO");
    const bill = (await admin.get(S.InvoiceSchema, `/admin/invoices?account_id=${account.id}&month=2026-11`)).data;
    expect(bill.lines.map((line) => line.service).sort()).toEqual([...DEPLOYED].sort());
    expect(bill.total).toBe((9.99 * 16).toFixed(2));
  });

  it("exits non-zero with the usage on stderr for an unknown command, and 0 for help", async () => {
    const tsx = path.resolve(__dirname, "../../../node_modules/.bin/tsx");
    const cli = path.resolve(__dirname, "../src/cli.ts");
    const failed = await promisify(execFile)(tsx, [cli, "acounts", "list"], { env: { ...process.env, ADMIN_TOKEN: TOKEN } }).catch((error) => error);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('unknown command "acounts list"');
    expect(failed.stderr).toContain("quickstart <name> [plan]");
    const help = await promisify(execFile)(tsx, [cli, "help"]);
    expect(help.stdout).toContain("quickstart <name> [plan]");
  });

  it("runs quickstart against a listening admin API", async () => {
    await app.listen({ port: 0, host: "127.0.0.1" });
    const port = (app.server.address() as AddressInfo).port;
    const tsx = path.resolve(__dirname, "../../../node_modules/.bin/tsx");
    const { stdout } = await promisify(execFile)(tsx, [path.resolve(__dirname, "../src/cli.ts"), "quickstart", "cli-user", "ultra"], {
      env: { ...process.env, ADMIN_URL: `http://127.0.0.1:${port}`, ADMIN_TOKEN: TOKEN },
    });
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ plan: "ULTRA", key: expect.stringMatching(/^gk_/) });
    const subs = await platform.accounts.listSubscriptions(result.account_id);
    expect(subs).toHaveLength(16);
    expect(new Set(subs.map((s) => s.plan))).toEqual(new Set(["ULTRA"]));
  });
});
