import type { FastifyInstance } from "fastify";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { ErrorSchema } from "./schemas.js";

export interface DocsOptions {
  service: string;
  host: string;
  description?: string;
  /** Adds the gateway headers as a security scheme (not for the admin API). */
  gatewaySecurity: boolean;
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

/** OpenAPI 3.1 generated from the route schemas at /openapi.json, and a Swagger UI page at /docs. */
export async function installDocs(app: FastifyInstance, options: DocsOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: { title: options.service, version: "1.0.0", description: options.description },
      servers: [{ url: `https://${options.host}` }],
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
    transformObject: (document) => parametersWithDefaultsAreOptional(("openapiObject" in document ? document.openapiObject : {}) as never) as never,
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
