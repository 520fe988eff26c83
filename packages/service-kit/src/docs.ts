import type { FastifyInstance } from "fastify";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { ApiError, errorEnvelope, errors } from "@apiplat/errors";
import { ErrorSchema } from "./schemas.js";
import { placeRecordedExamples, readExamplesFile } from "./openapi-examples.js";

export interface DocsOptions {
  service: string;
  host: string;
  /** Where clients reach the service, first in `servers` so that /docs "Try it out" works (see serviceUrl). */
  url: string;
  description?: string;
  /** Adds the gateway headers as a security scheme (not for the admin API). */
  gatewaySecurity: boolean;
  /** The service's recorded examples (openapi-examples.json), shown in each operation. */
  examples?: URL;
}

interface OpenApiParameter {
  required?: boolean;
  schema?: { default?: unknown };
}

/** A query parameter with a default is filled in when absent, so clients need not send it. */
function parametersWithDefaultsAreOptional(document: { paths?: Record<string, Record<string, { parameters?: OpenApiParameter[] }>> }) {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.schema?.default !== undefined) parameter.required = false;
      }
    }
  }
  return document;
}

type Operation = {
  parameters?: OpenApiParameter[] & { in?: string }[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
};

/** Each error answer the docs list: when it is given, and an example of it, made as the platform makes it. */
const ERROR_ANSWERS: Record<string, { when: string; error: ApiError }> = {
  "400": { when: "a parameter or body field is missing, of the wrong type or out of bounds", error: errors.validation("count", "must be at most 100") },
  "401": { when: "no X-Gateway-Key", error: errors.missingApiKey() },
  "403": {
    when: "the key is unknown, revoked or not subscribed, or X-Gateway-Host names another service",
    error: errors.invalidApiKey("This API key is not valid."),
  },
  "404": { when: "the resource named in the path does not exist (or belongs to another account)", error: errors.notFound() },
  "413": {
    when: "the body is larger than this endpoint accepts",
    error: new ApiError(413, "PAYLOAD_TOO_LARGE", "The request body is larger than this endpoint accepts.", [
      { field: "body", issue: "must be at most 1048576 bytes" },
    ]),
  },
  "415": { when: "the body is not JSON", error: errors.unsupportedMediaType("Send the body as application/json.") },
  "429": {
    when: "the plan's monthly quota or per-second limit is reached",
    error: new ApiError(429, "QUOTA_EXCEEDED", "This key's monthly quota of 100 requests is used up; it resets on the 1st (UTC)."),
  },
};

function errorResponse(status: string) {
  const { when, error } = ERROR_ANSWERS[status];
  const example = { ...errorEnvelope(error.code, error.message, "3f2a7c1e-9b4d-4e8a-8f61-2c5d0b7a9e14", error.details), timestamp: "2026-11-25T12:00:00.000Z" };
  return {
    description: `${error.code}: ${when}`,
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" }, example } },
  };
}

/** Every operation lists the error answers it can give, in the envelope, with an example each. */
function errorAnswersListed(document: { paths?: Record<string, Record<string, Operation>> }, gatewaySecurity: boolean) {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      if (!operation || typeof operation !== "object" || !operation.responses) continue;
      const statuses = ["400"];
      if (gatewaySecurity) statuses.push("401", "403", "429");
      if (operation.parameters?.some((p) => (p as { in?: string }).in === "path")) statuses.push("404");
      if (operation.requestBody) statuses.push("413", "415");
      for (const status of statuses) operation.responses[status] ??= errorResponse(status);
    }
  }
  return document;
}

/** OpenAPI 3.1 generated from the route schemas at /openapi.json, and a Swagger UI page at /docs. */
export async function installDocs(app: FastifyInstance, options: DocsOptions): Promise<void> {
  const examples = options.examples ? readExamplesFile(options.examples) : null;
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: { title: options.service, version: "1.0.0", description: options.description },
      servers: [...new Set([options.url, `https://${options.host}`])].map((url) => ({ url })),
      components: {
        securitySchemes: options.gatewaySecurity
          ? {
              gatewayKey: { type: "apiKey", in: "header", name: "X-Gateway-Key" },
              gatewayHost: { type: "apiKey", in: "header", name: "X-Gateway-Host" },
            }
          : { adminToken: { type: "http", scheme: "bearer" } },
        schemas: { Error: ErrorSchema as never },
      },
      security: options.gatewaySecurity ? [{ gatewayKey: [], gatewayHost: [] }] : [{ adminToken: [] }],
    },
    transformObject: (document) =>
      placeRecordedExamples(
        errorAnswersListed(
          parametersWithDefaultsAreOptional(("openapiObject" in document ? document.openapiObject : {}) as never) as never,
          options.gatewaySecurity,
        ) as never,
        examples,
      ) as never,
  });
  await app.register(async (docs) => {
    // The UI's own routes are public like the spec they show.
    docs.addHook("onRoute", (route) => {
      route.config = { ...(route.config as object), public: true };
    });
    await docs.register(swaggerUi, { routePrefix: "/docs", uiConfig: { docExpansion: "list" } });
  });
  app.get("/openapi.json", { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
