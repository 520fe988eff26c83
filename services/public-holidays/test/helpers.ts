import { createTestPlatform, type TestPlatform } from "@apiplat/testing";
import { buildApp } from "../src/app.js";

type App = Awaited<ReturnType<typeof buildApp>>;

export interface Harness {
  platform: TestPlatform;
  app: App;
  headers: Record<string, string>;
  /** GET with the subscriber's gateway headers; returns status, headers and parsed JSON body. */
  get(url: string, extraHeaders?: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: any }>;
  close(): Promise<void>;
}

/**
 * A real platform (PostgreSQL schema + Redis prefix of its own) and the service built on it, with a
 * MEGA subscriber so that bursts of test requests stay under the per-second limit.
 */
export async function startHarness(options: { now?: () => Date; env?: Record<string, string>; warmUp?: boolean } = {}): Promise<Harness> {
  const platform = await createTestPlatform({ now: options.now, env: options.env });
  const app = await buildApp({ ...platform.deps, warmUp: options.warmUp });
  const { headers } = await platform.subscribe("public-holidays", "MEGA");
  return {
    platform,
    app,
    headers,
    async get(url, extraHeaders = {}) {
      const response = await app.inject({ method: "GET", url, headers: { ...headers, ...extraHeaders } });
      return {
        status: response.statusCode,
        headers: response.headers,
        body: response.body.length > 0 ? response.json() : undefined,
      };
    },
    async close() {
      await app.close();
      await platform.close();
    },
  };
}

/** The fields hand-checked against official calendars. */
export function brief(holidays: Array<Record<string, any>>) {
  return holidays.map(({ date, name, local_name, substitute }) => ({ date, name, local_name, substitute }));
}
