import type { ErrorDetail } from "./api-error.js";

export interface SuccessEnvelope<T> {
  status: "success";
  data: T;
  timestamp: string;
}

export interface ErrorEnvelope {
  status: "error";
  error: { code: string; message: string; details?: ErrorDetail[] };
  request_id: string;
  timestamp: string;
}

export function ok<T>(data: T): SuccessEnvelope<T> {
  return { status: "success", data, timestamp: new Date().toISOString() };
}

export function errorEnvelope(code: string, message: string, requestId: string, details?: ErrorDetail[]): ErrorEnvelope {
  return {
    status: "error",
    error: details && details.length > 0 ? { code, message, details } : { code, message },
    request_id: requestId,
    timestamp: new Date().toISOString(),
  };
}
