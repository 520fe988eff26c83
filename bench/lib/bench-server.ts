/**
 * The server side of a platform-vs-bare benchmark, run in a child process of its own:
 *   platform  the real service app: gateway auth, quota and metering on the real PostgreSQL + Redis
 *   bare      the same route plugin on Fastify({ logger: false }): no auth, metering, logging or metrics
 * Prints one JSON line {port, key, pid} when listening; closes cleanly (flushing usage) on SIGTERM.
 */
import Fastify, { type FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { ServiceName } from "@apiplat/config";
import { setServiceRuntimeFlags, type ServiceApp } from "@apiplat/service-kit";
import { createTestPlatform, type TestDeps } from "@apiplat/testing";

export interface BenchServerOptions {
  service: ServiceName;
  buildPlatformApp: (deps: TestDeps) => Promise<ServiceApp>;
  registerBareRoutes: (app: FastifyInstance) => PromiseLike<unknown>;
  bodyLimit?: number;
}

function announce(app: FastifyInstance, key: string): void {
  console.log(JSON.stringify({ port: (app.server.address() as { port: number }).port, key, pid: process.pid }));
}

export async function serveForBenchmark(mode: string, options: BenchServerOptions): Promise<void> {
  if (mode === "bare") {
    const app = Fastify({ logger: false, bodyLimit: options.bodyLimit }).withTypeProvider<TypeBoxTypeProvider>();
    await options.registerBareRoutes(app);
    await app.listen({ port: 0, host: "127.0.0.1" });
    announce(app, "");
    process.once("SIGTERM", async () => {
      await app.close();
      process.exit(0);
    });
    return;
  }
  setServiceRuntimeFlags();
  // Per-second limits off so that one key can be driven at full speed; everything else as in production.
  const platform = await createTestPlatform({
    env: { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn", METERING_FLUSH_MS: "2000", RATE_LIMITS: "off" },
  });
  const app = await options.buildPlatformApp(platform.deps);
  const { key } = await platform.subscribe(options.service, "MEGA");
  await app.listen({ port: 0, host: "127.0.0.1" });
  announce(app, key);
  process.once("SIGTERM", async () => {
    await app.close();
    await platform.close();
    process.exit(0);
  });
}
