import { trace, type Tracer } from "@opentelemetry/api";

/**
 * Whether this process exports traces. Every instrumented place asks this first, so that with tracing off a request
 * pays one property read per query, cache call or outbound call, and no span object is made.
 */
export const tracing = { on: false };

/** The platform's one tracer (the SDK's once startTracing ran, the API's no-op before). */
export function tracer(): Tracer {
  return trace.getTracer("apiplat");
}
