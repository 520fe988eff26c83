import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { DEFAULT_RETRY_POLICY, generateSigningSecret, nextRetryDelayMs, signatureHeaders } from "../src/index.js";

describe("signatureHeaders", () => {
  it("signs as Standard Webhooks specifies, verifiable by the reference library", () => {
    const secret = generateSigningSecret();
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ type: "email.sent" });
    const headers = signatureHeaders([secret], "evt_1", now, body);
    expect(new Webhook(secret).verify(body, headers)).toEqual({ type: "email.sent" });
    const key = Buffer.from(secret.slice("whsec_".length), "base64");
    const expected = createHmac("sha256", key).update(`evt_1.${now}.${body}`).digest("base64");
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
  });

  it("gives one signature per secret, any of which verifies", () => {
    const [a, b] = [generateSigningSecret(), generateSigningSecret()];
    const now = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders([a, b], "evt_2", now, "{}");
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(b).verify("{}", headers)).toEqual({});
  });
});

describe("nextRetryDelayMs", () => {
  const now = new Date("2026-01-01T00:00:00Z");
  it("follows the schedule with jitter at its edges, then stops", () => {
    expect(nextRetryDelayMs(1, { statusCode: 500 }, now, 0)).toBe(4_000);
    expect(nextRetryDelayMs(1, { statusCode: null }, now, 0.5)).toBe(5_000);
    expect(nextRetryDelayMs(2, { statusCode: 503 }, now, 0.5)).toBe(20_000);
    expect(nextRetryDelayMs(DEFAULT_RETRY_POLICY.baseDelaysMs.length + 1, { statusCode: 500 }, now, 0.5)).toBeNull();
  });
  it("does not retry successes, client errors or guard refusals; honours Retry-After", () => {
    expect(nextRetryDelayMs(1, { statusCode: 204 }, now, 0.5)).toBeNull();
    expect(nextRetryDelayMs(1, { statusCode: 404 }, now, 0.5)).toBeNull();
    expect(nextRetryDelayMs(1, { statusCode: null, permanentError: true }, now, 0.5)).toBeNull();
    expect(nextRetryDelayMs(1, { statusCode: 429, retryAfter: "120" }, now, 0.5)).toBe(120_000);
  });
});
