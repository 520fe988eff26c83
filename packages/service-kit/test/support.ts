import { Type } from "typebox";
import { ApiError, createServiceApp, ok, type ServiceApp } from "../src/index.js";
import { afterAll, beforeAll } from "vitest";
import { createTestPlatform, type TestDeps, type TestPlatform, type TestSubscriber } from "@apiplat/testing";

/** A small service on the platform, standing for any of the product's services. */
export async function buildProbeApp(deps: TestDeps): Promise<ServiceApp> {
  const app = await createServiceApp({ service: "text-toolkit", deps, bodyLimit: 1024 });
  app.post(
    "/echo",
    {
      schema: {
        body: Type.Object({
          text: Type.String({ maxLength: 5 }),
          count: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
          mode: Type.Optional(Type.Union([Type.Literal("a"), Type.Literal("b")])),
        }),
      },
    },
    async (request) => ok({ text: request.body.text, account_id: request.subscriber.accountId, plan: request.subscriber.plan }),
  );
  app.get("/ping", { schema: { querystring: Type.Object({ times: Type.Integer({ minimum: 1, maximum: 9, default: 1 }) }) } }, async () => ok({ pong: true }));
  app.get("/public", { config: { public: true } }, async () => ok({ open: true }));
  // A route with a request hook of its own, which may rely on what the platform's hooks did before it.
  app.get(
    "/whoami",
    {
      onRequest: (request, reply, done) => {
        reply.header("x-seen-plan", request.subscriber.plan);
        reply.header("x-seen-remaining", String(reply.getHeader("x-ratelimit-requests-remaining")));
        done();
      },
    },
    async (request) => ok({ account_id: request.subscriber.accountId, ip: request.ip }),
  );
  app.get("/boom", async () => {
    throw new Error("connection to 10.0.0.5:5432 failed at /srv/app/src/db.ts:42");
  });
  // Failures as services raise them: ours (a model not installed, a full queue) and the subscriber's target's.
  app.get("/fail/:code", async (request) => {
    const code = (request.params as { code: string }).code;
    const [status, message] = (
      {
        MODEL_UNAVAILABLE: [503, "The model is not available on this deployment."],
        UNAVAILABLE: [503, "The queue is full; retry shortly."],
        UPSTREAM_ERROR: [502, "The page answered HTTP 500."],
        UPSTREAM_TIMEOUT: [504, "The page did not answer in time."],
      } as Record<string, [number, string]>
    )[code] ?? [400, "unknown"];
    throw new ApiError(status, code, message);
  });
  return app;
}

/** A probe app on a test platform of its own (for settings the shared one lacks), with a PRO subscriber; close() ends both. */
export async function probeOnOwnPlatform(env: Record<string, string>, deps: Partial<TestDeps> = {}) {
  const platform = await createTestPlatform({ env });
  const app = await buildProbeApp({ ...platform.deps, ...deps });
  const subscriber = await platform.subscribe("text-toolkit", "PRO");
  const close = async () => {
    await app.close();
    await platform.close();
  };
  return { app, subscriber, close };
}

export interface ProbeUnderTest {
  platform: TestPlatform;
  app: ServiceApp;
  /** A MEGA subscriber of the probe's service. */
  sub: TestSubscriber;
}

/** The probe app on its own platform for a file's tests (built before them, closed after); `routes` adds the file's own. */
export function probeUnderTest(routes: (app: ServiceApp) => void = () => {}): ProbeUnderTest {
  const kit = {} as ProbeUnderTest;
  beforeAll(async () => {
    kit.platform = await createTestPlatform();
    kit.app = await buildProbeApp(kit.platform.deps);
    routes(kit.app);
    kit.sub = await kit.platform.subscribe("text-toolkit", "MEGA");
  });
  afterAll(async () => {
    await kit.app.close();
    await kit.platform.close();
  });
  return kit;
}
