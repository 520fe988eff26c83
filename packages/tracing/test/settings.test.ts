import * as sdk from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { samplerFromEnv, statementText, STATEMENT_TEXT_LIMIT, tracesUrl, tracingRequested } from "../src/index.js";

describe("when tracing is on", () => {
  it("is on with an OTLP endpoint, and only then", () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "true" })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_TRACES_EXPORTER: "none" })).toBe(false);
  });

  it("sends to the traces path of the endpoint, or to the traces endpoint as given", () => {
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe("http://collector:4318/v1/traces");
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/otlp/" })).toBe("http://collector:4318/otlp/v1/traces");
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://a:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://b:4318/t" })).toBe("http://b:4318/t");
  });
});

describe("the sampler OTEL_TRACES_SAMPLER names", () => {
  it("follows the parent's decision by default, and takes every specified name", () => {
    expect(samplerFromEnv(sdk, {}).toString()).toBe(new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() }).toString());
    expect(samplerFromEnv(sdk, { OTEL_TRACES_SAMPLER: "always_off" })).toBeInstanceOf(sdk.AlwaysOffSampler);
    expect(samplerFromEnv(sdk, { OTEL_TRACES_SAMPLER: "always_on" })).toBeInstanceOf(sdk.AlwaysOnSampler);
    expect(samplerFromEnv(sdk, { OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.25" }).toString()).toBe("TraceIdRatioBased{0.25}");
    expect(samplerFromEnv(sdk, { OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.1" }).toString()).toContain(
      "TraceIdRatioBased{0.1}",
    );
    expect(samplerFromEnv(sdk, { OTEL_TRACES_SAMPLER: "parentbased_always_off" }).toString()).toContain("AlwaysOffSampler");
  });

  it("refuses a name or a ratio it does not know, saying what it takes", () => {
    expect(() => samplerFromEnv(sdk, { OTEL_TRACES_SAMPLER: "jaeger_remote" })).toThrow(
      'OTEL_TRACES_SAMPLER must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio, not "jaeger_remote"',
    );
    expect(() => samplerFromEnv(sdk, { OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "1.5" })).toThrow(
      'OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1 (e.g. 0.1), not "1.5"',
    );
  });
});

describe("a statement's text on its span", () => {
  it("keeps placeholders and names, replaces written-out literals", () => {
    expect(statementText("SELECT * FROM t1 WHERE id = $1 AND name = 'O''Brien' AND n > 42 AND x = -3.5")).toBe(
      "SELECT * FROM t1 WHERE id = $1 AND name = ? AND n > ? AND x = ?",
    );
    expect(statementText("INSERT INTO usage_2026 (a)\n   VALUES ($1)")).toBe("INSERT INTO usage_2026 (a) VALUES ($1)");
  });

  it(`is cut at ${STATEMENT_TEXT_LIMIT} characters`, () => {
    const text = statementText(`SELECT ${"a, ".repeat(2000)}b FROM t`);
    expect(text).toHaveLength(STATEMENT_TEXT_LIMIT + 1);
    expect(text.endsWith("…")).toBe(true);
  });
});
