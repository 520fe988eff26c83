import { hostname } from "node:os";
import { context, diag, DiagConsoleLogger, DiagLogLevel, propagation, trace } from "@opentelemetry/api";
import { samplerFromEnv } from "./sampler.js";
import { tracing } from "./state.js";

type Env = Record<string, string | undefined>;

/** A started exporter: `shutdown` sends what is still queued (SIGTERM does it) and stops. */
export interface StartedTracing {
  shutdown(): Promise<void>;
}

/**
 * Tracing is on when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT, or the traces-only
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), unless OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none says otherwise.
 */
export function tracingRequested(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** Where spans go: the traces endpoint as given, or the OTLP endpoint with the traces path, as the specification says. */
export function tracesUrl(env: Env): string {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT!.trim();
  return `${base.endsWith("/") ? base : `${base}/`}v1/traces`;
}

/** A positive whole number from the environment, or the default when unset. */
function positiveInteger(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, not "${raw}"`);
  return value;
}

/** The batch processor's bounds: the OTEL_BSP_* variables, with the specification's defaults. */
function batchOptions(env: Env) {
  const maxQueueSize = positiveInteger(env, "OTEL_BSP_MAX_QUEUE_SIZE", 2048);
  return {
    maxQueueSize,
    maxExportBatchSize: Math.min(maxQueueSize, positiveInteger(env, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 512)),
    scheduledDelayMillis: positiveInteger(env, "OTEL_BSP_SCHEDULE_DELAY", 5000),
    exportTimeoutMillis: positiveInteger(env, "OTEL_BSP_EXPORT_TIMEOUT", 30000),
  };
}

/**
 * Starts the OpenTelemetry SDK when tracing is requested (see tracingRequested), else does nothing at all: the SDK is
 * not even loaded, and every instrumented place keeps its untraced path. Spans go to the OTLP/HTTP endpoint as JSON,
 * in batches (at most OTEL_BSP_MAX_QUEUE_SIZE spans wait; more are dropped, never held without bound). The W3C trace
 * context propagator reads `traceparent` on requests and writes it on outbound calls.
 */
export async function startTracing(serviceName: string, env: Env = process.env): Promise<StartedTracing | null> {
  if (!tracingRequested(env) || tracing.on) return null;
  const sdk = await import("@opentelemetry/sdk-trace");
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
  const { AsyncLocalStorageContextManager } = await import("@opentelemetry/context-async-hooks");
  const { W3CTraceContextPropagator } = await import("@opentelemetry/core");
  const { detectResources, resourceAttributesEnvDetector, resourceFromAttributes, serviceNameEnvDetector } = await import("@opentelemetry/resources");

  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) win over the names given here.
  const resource = resourceFromAttributes({
    "service.name": serviceName,
    "service.namespace": "apiplat",
    "service.instance.id": `${hostname()}:${process.pid}`,
  }).merge(detectResources({ detectors: [resourceAttributesEnvDetector, serviceNameEnvDetector] }));
  const provider = new sdk.TracerProvider({
    resource,
    sampler: samplerFromEnv(sdk, env),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: tracesUrl(env) }), ...batchOptions(env) })],
  });
  // An export that fails (the collector away, refusing) is said on stderr; requests go on untouched.
  diag.setLogger(new DiagConsoleLogger(), { logLevel: DiagLogLevel.ERROR, suppressOverrideMessage: true });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  tracing.on = true;

  let stopped: Promise<void> | undefined;
  return {
    shutdown() {
      stopped ??= provider.shutdown().finally(() => {
        tracing.on = false;
        trace.disable();
        propagation.disable();
        context.disable();
        diag.disable();
      });
      return stopped;
    },
  };
}
