import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { DEFAULT_RETRY_POLICY, generateSigningSecret, nextRetryDelayMs, parseRetryAfter, signatureHeaders } from "../src/index.js";

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

  it("matches the Standard Webhooks specification's own example", () => {
    // Value computed independently: echo -n 'msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}' | openssl dgst -sha256 -hmac <decoded key> -binary | base64
    const headers = signatureHeaders(
      ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
      "msg_p5jXN8AQM9LWM0D4loKWxJek",
      1614265330,
      Buffer.from('{"test": 2432232314}'),
    );
    expect(headers["webhook-signature"]).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    expect(generateSigningSecret()).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
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
  it("has 8 attempts: 5 s then four times longer each retry", () => {
    expect(DEFAULT_RETRY_POLICY.baseDelaysMs).toEqual([5_000, 20_000, 80_000, 320_000, 1_280_000, 5_120_000, 20_480_000]);
  });
  it("follows the schedule with jitter at its edges, then stops", () => {
    expect(nextRetryDelayMs(2, { statusCode: 429 }, now, 0.999999)).toBe(24_000);
    expect(nextRetryDelayMs(7, { statusCode: 500 }, now, 0.5)).toBe(20_480_000);
    expect(nextRetryDelayMs(1, { statusCode: 500 }, now, 0)).toBe(4_000);
    expect(nextRetryDelayMs(1, { statusCode: null }, now, 0.5)).toBe(5_000);
    expect(nextRetryDelayMs(2, { statusCode: 503 }, now, 0.5)).toBe(20_000);
    expect(nextRetryDelayMs(DEFAULT_RETRY_POLICY.baseDelaysMs.length + 1, { statusCode: 500 }, now, 0.5)).toBeNull();
  });
  it("does not retry successes, client errors or guard refusals; honours Retry-After", () => {
    expect(nextRetryDelayMs(1, { statusCode: 204 }, now, 0.5)).toBeNull();
    expect(nextRetryDelayMs(1, { statusCode: 404 }, now, 0.5)).toBeNull();
    expect(nextRetryDelayMs(1, { statusCode: 400 }, now, 0.5)).toBeNull();
    expect(nextRetryDelayMs(1, { statusCode: 302 }, now, 0.5)).toBeNull();
    expect(nextRetryDelayMs(1, { statusCode: 408 }, now, 0.5)).toBe(5_000);
    expect(nextRetryDelayMs(1, { statusCode: null, permanentError: true }, now, 0.5)).toBeNull();
    expect(nextRetryDelayMs(1, { statusCode: 429, retryAfter: "120" }, now, 0.5)).toBe(120_000);
    expect(nextRetryDelayMs(1, { statusCode: 429, retryAfter: "1" }, now, 0.5)).toBe(5_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("soon", now)).toBeNull();
  });
});
