import type { FastifyInstance } from "fastify";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

declare module "fastify" {
  interface FastifyInstance {
    /** The app's Prometheus registry: services register their own metrics here. */
    metricsRegistry: Registry;
  }
}

/**
 * Prometheus text at /metrics: a per-route latency histogram by method and status. Its
 * http_request_duration_seconds_count series are the request counts by route and status.
 */
export function installMetrics(app: FastifyInstance, service: string): void {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  app.decorate("metricsRegistry", registry);
  const labelNames = ["method", "route", "status_code"] as const;
  const latency = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from request received to response sent, by route",
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  // One labelled child per method, route and status, found by a plain string key: prom-client would
  // otherwise sort and join the label object on every observation.
  const series = new Map<string, ReturnType<typeof latency.labels>>();
  app.addHook("onResponse", async (request, reply) => {
    // Unmatched paths share one label so that scanners cannot blow up the series count.
    const route = request.routeOptions.url ?? "unmatched";
    const id = `${request.method} ${route} ${reply.statusCode}`;
    let child = series.get(id);
    if (!child) {
      child = latency.labels({ method: request.method, route, status_code: reply.statusCode });
      series.set(id, child);
    }
    child.observe(reply.elapsedTime / 1000);
  });
  app.get("/metrics", { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    void reply.type(registry.contentType);
    return registry.metrics();
  });
}

export interface ExposedMetric {
  name: string;
  help: string;
  /** counter: a running total that only grows; gauge: a level (a queue's length). */
  type: "counter" | "gauge";
  read: () => number;
}

/** Puts a value the app already keeps on /metrics, read when scraped, so that the hot path pays nothing for it. */
export function exposeMetric(app: FastifyInstance, metric: ExposedMetric): void {
  const { name, help, read } = metric;
  const registers = [app.metricsRegistry];
  if (metric.type === "gauge") {
    new Gauge({ name, help, registers, collect() { this.set(read()); } });
  } else {
    new Counter({ name, help, registers, collect() { this.reset(); this.inc(read()); } });
  }
}
