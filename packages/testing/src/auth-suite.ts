/**
 * The gateway's authentication cases every service answers the same way, in one call: no key, a key the platform
 * does not know, a revoked key, and a key sent to another service's host. Apart from the package's index because it
 * imports vitest (as search-bounds-suite.ts).
 */
import { describe, expect, it } from "vitest";
import type { StartedService } from "./start-service.js";

export interface AuthCase {
  /** The service under test, started by the file (called once its beforeAll has run). */
  started: () => StartedService;
  /** One of the service's paid operations; its body when it takes one. */
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  payload?: object;
}

/** Describes "gateway authentication" for one operation of the service. */
export function describeAuth(operation: AuthCase): void {
  const ask = async (headers: Record<string, string>) => {
    const { method, url, payload } = operation;
    const answer = await operation.started().app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    // Every refusal is in the envelope, with the request id the answer's header carries.
    expect(answer.json().request_id).toBe(answer.headers["x-request-id"]);
    return { status: answer.statusCode, code: answer.json().error?.code as string | undefined };
  };

  describe(`gateway authentication (${operation.method} ${operation.url.split("?")[0]})`, () => {
    it("answers 401 MISSING_API_KEY without a key", async () => {
      const { headers } = await operation.started().subscribe("PRO");
      expect(await ask({ "x-gateway-host": headers["x-gateway-host"] })).toEqual({ status: 401, code: "MISSING_API_KEY" });
    });

    it("answers 403 INVALID_API_KEY for a key the platform does not know, and for a revoked one", async () => {
      const subscriber = await operation.started().subscribe("PRO");
      expect(await ask({ ...subscriber.headers, "x-gateway-key": "not-a-key" })).toEqual({ status: 403, code: "INVALID_API_KEY" });
      await operation.started().platform.accounts.revokeKey(subscriber.keyId);
      expect(await ask(subscriber.headers)).toEqual({ status: 403, code: "INVALID_API_KEY" });
    });

    it("answers 403 HOST_MISMATCH for a key sent to another service's host", async () => {
      const { headers } = await operation.started().subscribe("PRO");
      const otherHost = headers["x-gateway-host"].startsWith("text-toolkit.") ? "time-zone.api.local" : "text-toolkit.api.local";
      expect(await ask({ ...headers, "x-gateway-host": otherHost })).toEqual({ status: 403, code: "HOST_MISMATCH" });
    });
  });
}
