import type { Sampler } from "@opentelemetry/sdk-trace";

type SamplerKit = Pick<typeof import("@opentelemetry/sdk-trace"), "AlwaysOnSampler" | "AlwaysOffSampler" | "TraceIdRatioBasedSampler" | "ParentBasedSampler">;

/** The sampler names of the OpenTelemetry environment specification that this platform supports. */
export const SAMPLER_NAMES = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;

function ratioOf(arg: string | undefined): number {
  if (arg === undefined || arg.trim() === "") return 1;
  const ratio = Number(arg);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
    throw new Error(`OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1 (e.g. 0.1), not "${arg}"`);
  }
  return ratio;
}

/**
 * The sampler OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG name (default parentbased_always_on: a request whose
 * traceparent says "sampled" is traced, one that says "not sampled" is not, one without is). An unknown name refuses
 * to start rather than trace differently than the operator asked.
 */
export function samplerFromEnv(kit: SamplerKit, env: Record<string, string | undefined>): Sampler {
  const name = (env.OTEL_TRACES_SAMPLER ?? "").trim().toLowerCase() || "parentbased_always_on";
  const arg = env.OTEL_TRACES_SAMPLER_ARG;
  switch (name) {
    case "always_on":
      return new kit.AlwaysOnSampler();
    case "always_off":
      return new kit.AlwaysOffSampler();
    case "traceidratio":
      return new kit.TraceIdRatioBasedSampler(ratioOf(arg));
    case "parentbased_always_on":
      return new kit.ParentBasedSampler({ root: new kit.AlwaysOnSampler() });
    case "parentbased_always_off":
      return new kit.ParentBasedSampler({ root: new kit.AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new kit.ParentBasedSampler({ root: new kit.TraceIdRatioBasedSampler(ratioOf(arg)) });
    default:
      throw new Error(`OTEL_TRACES_SAMPLER must be one of ${SAMPLER_NAMES.join(", ")}, not "${name}"`);
  }
}
