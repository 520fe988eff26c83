import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

const ACCEPTABLE_REQUEST_ID = /^[\w.:\-]{1,128}$/;

/** A caller's X-Request-Id is kept when it is a sane token; otherwise we make one. */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
}
