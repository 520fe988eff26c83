import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, errorEnvelope, isApiError, type ErrorDetail } from "@apiplat/errors";
import { validationDetails } from "./validation.js";

/** The envelope's codes (README, "Responses and errors") for client errors raised by Fastify or a plugin, not our code. */
const CODE_BY_STATUS: Record<number, string> = {
  400: "VALIDATION_ERROR",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE",
  429: "RATE_LIMITED",
};

function toApiError(error: FastifyError, bodyLimit: number | undefined): ApiError {
  if (isApiError(error)) return error;
  if (error.validation) {
    const details = validationDetails(error.validation as never, error.validationContext ?? "body");
    const message = details.map((d) => `${d.field} ${d.issue}`).join("; ") + ".";
    return new ApiError(400, "VALIDATION_ERROR", message, details);
  }
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError(413, "PAYLOAD_TOO_LARGE", "The request body is larger than this endpoint accepts.", [
        { field: "body", issue: `must be at most ${bodyLimit} bytes` },
      ]);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json.");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new ApiError(400, "VALIDATION_ERROR", "The JSON body is empty.", [{ field: "body", issue: "is required" }]);
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new ApiError(400, "VALIDATION_ERROR", "Content-Length does not match the body.");
  }
  if (error instanceof SyntaxError || error.code === "FST_ERR_CTP_INVALID_JSON_BODY") {
    return new ApiError(400, "VALIDATION_ERROR", "The request body is not valid JSON.", [{ field: "body", issue: "must be valid JSON" }]);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new ApiError(status, CODE_BY_STATUS[status] ?? "BAD_REQUEST", error.message);
  if (status === 503) return new ApiError(503, "UNAVAILABLE", "The service is shutting down or a dependency is down; retry shortly.");
  return new ApiError(500, "INTERNAL_ERROR", "Something went wrong on our side; quote the request_id if you contact support.");
}

/** Every error, ours or Fastify's, leaves in the shared envelope; internals stay in the log. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error, request.routeOptions.bodyLimit);
    if (apiError.statusCode >= 500) request.log.error({ err: error }, "request failed");
    else request.log.info({ code: apiError.code, status: apiError.statusCode }, apiError.message);
    if (apiError.headers) reply.headers(apiError.headers);
    void reply
      .status(apiError.statusCode)
      .type("application/json; charset=utf-8")
      .send(errorEnvelope(apiError.code, apiError.message, request.id, apiError.details));
  });
  app.setNotFoundHandler((request, reply) => {
    void reply.status(404).send(errorEnvelope("NOT_FOUND", `There is no ${request.method} ${request.url.split("?")[0]} on this service.`, request.id));
  });
}

/** Fastify's own errors before routing (its `frameworkErrors`), in the envelope with the request id. */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const apiError =
    error.code === "FST_ERR_MAX_PARAM_LENGTH"
      ? new ApiError(400, "VALIDATION_ERROR", "The path has a segment longer than this service accepts: at most 100 characters each.", [
          { field: "path", issue: "must have segments of at most 100 characters each" },
        ])
      : error.code === "FST_ERR_BAD_URL"
        ? new ApiError(400, "VALIDATION_ERROR", "The path is not a valid URL: a % must start a valid escape such as %20.", [
            { field: "path", issue: "must be valid percent-encoded UTF-8" },
          ])
        : toApiError(error, undefined);
  request.log.info({ code: apiError.code, status: apiError.statusCode }, apiError.message);
  void reply
    .status(apiError.statusCode)
    .header("x-request-id", request.id)
    .type("application/json; charset=utf-8")
    .send(errorEnvelope(apiError.code, apiError.message, request.id, apiError.details));
}

/**
 * What Node's HTTP parser refuses before any request exists (Fastify's `clientErrorHandler`): a request line or header
 * that is not HTTP (a raw space in the URL), headers over Node's size limit, a request that did not arrive in time.
 * Answered in the envelope, with a request id of its own, before the connection closes.
 */
function clientErrorResponse(error: NodeJS.ErrnoException, requestTimeoutMs: number): string {
  const [status, reason, code, message, details]: [number, string, string, string, ErrorDetail[] | undefined] =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? [408, "Request Timeout", "REQUEST_TIMEOUT", `The request did not arrive in full within ${requestTimeoutMs / 1000} seconds.`, undefined]
      : error.code === "HPE_HEADER_OVERFLOW"
        ? [
            431,
            "Request Header Fields Too Large",
            "PAYLOAD_TOO_LARGE",
            "The request's headers are too large.",
            [{ field: "headers", issue: "must be at most 16 KB in all" }],
          ]
        : [
            400,
            "Bad Request",
            "VALIDATION_ERROR",
            "The request is not well-formed HTTP: percent-encode spaces and other reserved characters in the URL (a space is %20).",
            [{ field: "request", issue: "must be a well-formed HTTP/1.1 request" }],
          ];
  const requestId = randomUUID();
  const body = JSON.stringify(errorEnvelope(code, message, requestId, details));
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`;
}

/** Fastify's `clientErrorHandler`: the envelope above, unless the client is already gone (as Fastify's own does). */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket, requestTimeoutMs: number): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  if (socket.writable) socket.write(clientErrorResponse(error, requestTimeoutMs));
  socket.destroy(error);
}
