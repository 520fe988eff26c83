import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from "fastify";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { serviceEndpoint, serviceUrl, type AppName } from "@apiplat/config";
import { AccountStore, gatewayAuth, gatewayAuthMigrations } from "@apiplat/gateway-auth";
import { metering, meteringMigrations } from "@apiplat/metering";
import { migrate, type MigrationSource } from "@apiplat/storage";
import { describeServerSpan, tracing } from "@apiplat/tracing";
import type { PlatformDeps } from "./deps.js";
import { installDocs } from "./docs.js";
import { answerClientError, installErrorHandling, sendFrameworkError } from "./error-handler.js";
import { installHealth, type ReadinessCheck } from "./health.js";
import { FrontDoor, trustProxyFunction, type FrontRoute } from "./front-door.js";
import { installMetrics } from "./metrics.js";
import { requestIdFor } from "./request-id.js";
import { assertFiniteNumbers, assertSafeText } from "./text-safety.js";
import { validatorCompiler } from "./validators.js";

export type ServiceApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module "fastify" {
  interface FastifyInstance {
    platform: PlatformDeps;
    /** Puts a handler in front of Fastify's routing for a hot public path (see FrontDoor). */
    addFrontRoute(route: FrontRoute): void;
  }
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface BaseAppOptions {
  /** Names the app in logs, metrics and OpenAPI. */
  name: string;
  /** The public host shown in OpenAPI. */
  host: string;
  /** Where clients reach the app, listed first in OpenAPI's servers. */
  url: string;
  deps: PlatformDeps;
  bodyLimit?: number;
  description?: string;
  /** Extra /ready checks beside the database and the cache; checks added to this record later count too. */
  readiness?: Record<string, ReadinessCheck>;
  gatewaySecurity?: boolean;
  /** The recorded examples file (openapi-examples.json) /openapi.json shows. */
  examples?: URL;
}

/** What every app shares, with or without gateway auth: envelope, request ids, logs, health, metrics, docs. */
export async function createBaseApp(options: BaseAppOptions): Promise<ServiceApp> {
  const { deps } = options;
  const frontDoor = new FrontDoor(trustProxyFunction(deps.config.trustProxy), deps.config.headersTimeoutMs);
  const app = Fastify({
    logger: {
      level: deps.config.logLevel,
      ...(deps.logStream ? { stream: deps.logStream } : {}),
      base: { service: options.name },
      redact: {
        paths: ['req.headers["x-gateway-key"]', 'req.headers["x-gateway-proxy-secret"]', "req.headers.authorization", "req.headers.cookie"],
        censor: "[redacted]",
      },
    },
    genReqId: requestIdFor,
    logController: new LogController({ requestIdLogLabel: "request_id", disableRequestLogging: deps.config.env.LOG_REQUESTS === "false" }),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // The front door's server closes idle connections itself, after a grace period (front-door.ts).
    forceCloseConnections: false,
    // A request that reached the instance before it began to stop is served (and the stop waits for it), not refused
    // with 503: behind a load balancer, only the connections the closed listener refuses go to another replica.
    return503OnClosing: false,
    // A client gets this long to send its whole request, body included (a slow-loris client is cut off).
    requestTimeout: deps.config.requestTimeoutMs,
    // Errors Fastify raises before routing (a malformed %-escape, an over-long path parameter) leave in the envelope too.
    frameworkErrors: (error, request, reply) => sendFrameworkError(error, request, reply),
    // So do those Node's HTTP parser raises before a request exists (a raw space in the URL, oversized headers).
    clientErrorHandler: (error, socket) => answerClientError(error, socket, deps.config.requestTimeoutMs),
    // Behind nginx the client address comes from X-Forwarded-For, trusted only from the configured proxies.
    trustProxy: frontDoor.trust,
    serverFactory: frontDoor.serverFactory as never,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // JSON endpoints take JSON: any other body (text/plain included, which Fastify would parse as a string) is a 415.
  app.removeContentTypeParser("text/plain");
  app.decorate("platform", deps);
  frontDoor.log = app.log;
  frontDoor.service = options.name;
  app.decorate("addFrontRoute", (route: FrontRoute) => frontDoor.add(route));
  // Callback hooks where nothing is awaited: an async hook costs a promise and a microtask on every request.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  if (tracing.on) {
    // Before the answer leaves, the request's span learns its route and, on an authenticated route, who asked.
    app.addHook("onSend", (request, reply, payload, done) => {
      const subscriber = (request as { subscriber?: { accountId: string; plan: string } | null }).subscriber;
      describeServerSpan(request.raw, {
        service: options.name,
        route: request.routeOptions.url,
        requestId: request.id,
        accountId: subscriber?.accountId,
        plan: subscriber?.plan,
      });
      done(null, payload);
    });
  }
  // Text no column, URL or header can hold is refused before any route or store sees it.
  app.addHook("preValidation", (request, reply, done) => {
    try {
      assertSafeText({ params: request.params, query: request.query, body: request.body });
      done();
    } catch (error) {
      done(error as Error);
    }
  });
  app.addHook("preHandler", (request, reply, done) => {
    try {
      assertFiniteNumbers({ params: request.params, query: request.query, body: request.body });
      done();
    } catch (error) {
      done(error as Error);
    }
  });
  installErrorHandling(app);
  frontDoor.latency = installMetrics(app, options.name);
  await installDocs(app, {
    service: options.name,
    host: options.host,
    url: options.url,
    description: options.description,
    gatewaySecurity: options.gatewaySecurity ?? true,
    examples: options.examples,
  });
  // Read at each /ready: a service may declare checks while it is being built.
  installHealth(app, () => ({ database: () => deps.db.ping(), cache: () => deps.kv.ping(), ...options.readiness }));
  return app;
}

const serviceKitMigrations = new URL("../migrations", import.meta.url);

/** The platform's own tables (accounts, keys, subscriptions, usage, running instances). */
export async function migratePlatform(deps: PlatformDeps): Promise<void> {
  await migrate(deps.db, "gateway-auth", gatewayAuthMigrations);
  await migrate(deps.db, "metering", meteringMigrations);
  await migrate(deps.db, "service-kit", serviceKitMigrations);
}

export interface ServiceAppOptions {
  service: AppName;
  deps: PlatformDeps;
  /** The service's own numbered SQL migrations. */
  migrations?: MigrationSource;
  bodyLimit?: number;
  description?: string;
  readiness?: Record<string, ReadinessCheck>;
  examples?: URL;
}

/** A product service: the base app plus gateway auth and metering on every route not marked public. */
export async function createServiceApp(options: ServiceAppOptions): Promise<ServiceApp> {
  const { deps, service } = options;
  await migratePlatform(deps);
  if (options.migrations) await migrate(deps.db, service, options.migrations);
  const host = serviceEndpoint(deps.config, service).host;
  const app = await createBaseApp({ ...options, name: service, host, url: serviceUrl(deps.config, service) });
  await app.register(gatewayAuth, {
    service,
    host,
    accounts: new AccountStore(deps.db),
    cacheTtlMs: deps.config.authCacheTtlMs,
    kv: deps.kv,
    proxySecret: deps.config.gatewayProxySecret,
  });
  await app.register(metering, {
    service,
    db: deps.db,
    kv: deps.kv,
    now: deps.now,
    flushIntervalMs: deps.config.meteringFlushMs,
    rateLimitsEnabled: deps.config.rateLimitsEnabled,
  });
  return app;
}
