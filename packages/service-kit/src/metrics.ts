import type { FastifyInstance } from "fastify";
import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from "prom-client";
import { LatencyHistogram } from "./latency-histogram.js";

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
export function installMetrics(app: FastifyInstance, service: string): LatencyHistogram {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  app.decorate("metricsRegistry", registry);
  const latency = new LatencyHistogram("http_request_duration_seconds", "Time from request received to response sent, by route", LATENCY_BUCKETS);
  registry.registerMetric(latency as unknown as Metric);
  app.addHook("onResponse", (request, reply, done) => {
    // Unmatched paths share one label so that scanners cannot blow up the series count.
    latency.observe(request.method, request.routeOptions.url ?? "unmatched", reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get("/metrics", { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    void reply.type(registry.contentType);
    return registry.metrics();
  });
  return latency;
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
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  } else {
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }
}
