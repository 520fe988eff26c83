export { ok, errors, ApiError, isApiError, type ErrorDetail } from "@apiplat/errors";
export type { Subscriber } from "@apiplat/gateway-auth";
export type { PlanName } from "@apiplat/config";
export * from "./deps.js";
export * from "./schemas.js";
export * from "./create-app.js";
export * from "./run.js";
export type { ReadinessCheck } from "./health.js";
export * from "./http-cache.js";
