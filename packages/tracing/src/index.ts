export { tracing, tracer } from "./state.js";
export { startTracing, tracingRequested, tracesUrl, type StartedTracing } from "./start.js";
export { samplerFromEnv, SAMPLER_NAMES } from "./sampler.js";
export { databaseSpan, redisSpan, outboundSpan, inSpan, statementText, STATEMENT_TEXT_LIMIT } from "./spans.js";
export { serveInSpan, describeServerSpan, type ServedRequest } from "./server-span.js";
