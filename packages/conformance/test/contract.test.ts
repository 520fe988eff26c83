/**
 * Every folder under services/ follows the service contract (docs/DEVELOPING.md, "The service contract"): a manifest
 * as the package's default export, a one-line main.ts, the layout folders, no I/O in domain/, the README's sections,
 * and an /openapi.json that documents every route the service registers.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { RouteOptions } from "fastify";
import type { ServiceManifest } from "@apiplat/service-kit";
import { QUIET_SERVICES_ENV, startService, type StartedService } from "@apiplat/testing";

const servicesDir = path.resolve(import.meta.dirname, "../../../services");

/** The operator's API, not a product service: no manifest (see services/admin/README.md). */
const NOT_A_SERVICE = ["admin"];

const services = readdirSync(servicesDir)
  .filter((name) => statSync(path.join(servicesDir, name)).isDirectory())
  .filter((name) => !NOT_A_SERVICE.includes(name));

/** Modules that do I/O: domain/ holds pure logic and imports none of them. */
const IO_MODULES = [
  "fs",
  "fs/promises",
  "net",
  "http",
  "https",
  "http2",
  "dns",
  "child_process",
  "worker_threads",
  "undici",
  "pg",
  "ioredis",
  "@apiplat/storage",
  "@apiplat/outbound-guard",
];

/**
 * Services older than `ownSchema`: their tables stay in the platform's schema, where existing deployments have them.
 * Every other service keeps its tables in a schema of its own.
 */
const TABLES_IN_PLATFORM_SCHEMA = [
  "currency-exchange",
  "embeddings",
  "geocoding",
  "ocr",
  "pdf-generation",
  "public-holidays",
  "summarization",
  "text-toolkit",
  "time-zone",
  "url-shortener",
  "webhook-relay",
];

const read = (service: string, file: string) => readFileSync(path.join(servicesDir, service, file), "utf8");
const exists = (service: string, file: string) => existsSync(path.join(servicesDir, service, file));

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : entry.name.endsWith(".ts") ? [path.join(dir, entry.name)] : [],
  );
}

/** Every module a file imports or re-exports, statically or dynamically, with "node:" dropped. */
function importsOf(source: string): string[] {
  const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((match) => match[1]);
  return specifiers.map((specifier) => specifier.replace(/^node:/, ""));
}

async function moduleOf(service: string): Promise<{ default: ServiceManifest<unknown, unknown>; ingestion?: { sources?: unknown } }> {
  const entry = JSON.parse(read(service, "package.json")).exports?.["."];
  return import(pathToFileURL(path.join(servicesDir, service, entry)).href);
}

async function manifestOf(service: string): Promise<ServiceManifest<unknown, unknown>> {
  return (await moduleOf(service)).default;
}

it("starts the services quietly with settings that some service still reads", () => {
  const sources = services.flatMap((service) => filesUnder(path.join(servicesDir, service, "src")).map((file) => readFileSync(file, "utf8")));
  const unread = Object.keys(QUIET_SERVICES_ENV).filter((name) => !sources.some((source) => source.includes(name)));
  expect(unread, "no service reads these: remove them from QUIET_SERVICES_ENV (packages/testing/src/quiet-env.ts)").toEqual([]);
});

/** A route module exports a Fastify plugin (`export const xRoutes: FastifyPluginAsync... = async (app, options) =>`). */
const isRouteModule = (source: string) => /^export\s+(?:const|let)\s+\w+\s*:\s*FastifyPluginAsync/m.test(source);

// admin included: its routes are tested the same way, though it is not a product service.
it.each(readdirSync(servicesDir).filter((name) => exists(name, "src/routes")))("%s has a test file named after every route module", (service) => {
  const untested = readdirSync(path.join(servicesDir, service, "src/routes"))
    .filter((file) => file.endsWith(".ts") && isRouteModule(read(service, `src/routes/${file}`)))
    .filter((file) => !exists(service, `test/${file.replace(/\.ts$/, ".test.ts")}`))
    .map((file) => `${service}/src/routes/${file}`);
  expect(
    untested,
    "each route module src/routes/<x>.ts has its HTTP tests in test/<x>.test.ts: name the file that tests it so, or split its tests out of another file (docs/DEVELOPING.md, Tests)",
  ).toEqual([]);
});

// A view turns what store/ or app/ gives into the answer's shape: one place per service, the same name everywhere.
it.each(readdirSync(servicesDir).filter((name) => exists(name, "src")))("%s keeps its views in src/routes/views.ts", (service) => {
  const misplaced = filesUnder(path.join(servicesDir, service, "src"))
    .map((file) => path.relative(path.join(servicesDir, service), file))
    .filter((file) => file.endsWith(".ts") && file !== "src/routes/views.ts")
    .filter((file) => /(^|\/)views?\.ts$/.test(file) || /^export function \w+View\(/m.test(read(service, file)));
  expect(misplaced, "a function that shapes an answer (xView) lives in src/routes/views.ts: move it there (docs/DEVELOPING.md, Layout)").toEqual([]);
});

describe.each(services)("%s", (service) => {
  it("exports its manifest from ./src/service.ts, named after its folder", async () => {
    expect(JSON.parse(read(service, "package.json")).exports).toEqual({ ".": "./src/service.ts" });
    const manifest = await manifestOf(service);
    expect(typeof manifest?.build, "the default export of src/service.ts is defineService({...})").toBe("function");
    expect(manifest.name).toBe(service);
    expect(manifest.description.length).toBeGreaterThan(0);
  });

  it("keeps its tables in a PostgreSQL schema of its own", async () => {
    const manifest = await manifestOf(service);
    const own = !TABLES_IN_PLATFORM_SCHEMA.includes(service);
    expect(
      manifest.ownSchema === true,
      own ? "set `ownSchema: true` in src/service.ts's defineService({...})" : "an older service keeps its tables where they are",
    ).toBe(own);
  });

  it("as a catalogue service, declares the catalogue's tables and exports its ingestion", async () => {
    if (!read(service, "src/service.ts").includes("buildCatalogueService")) return;
    const module = await moduleOf(service);
    const namespaces = (module.default.sharedTables ?? []).map((tables) => tables.namespace);
    expect(
      namespaces,
      "spread `...catalogueManifest(import.meta.url)` (ownSchema: true, sharedTables: [catalogueTables]) into the manifest in src/service.ts",
    ).toContain("catalogue");
    expect(
      typeof module.ingestion?.sources,
      "export `const ingestion = defineIngestion({ sources })` from src/service.ts: without it `npm run ingest -- --all` (docker-compose's " +
        "catalogues, the Kubernetes catalogues Job) skips this service and its catalogue stays empty",
    ).toBe("function");
  });

  it("has the one-line main.ts", () => {
    const lines = read(service, "src/main.ts")
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    expect(lines).toEqual(['import { runService } from "@apiplat/service-kit";', 'import service from "./service.js";', "await runService(service);"]);
  });

  it("keeps routes in src/routes and no I/O in src/domain", () => {
    expect(exists(service, "src/routes"), "src/routes/ exists").toBe(true);
    const offending = filesUnder(path.join(servicesDir, service, "src/domain")).flatMap((file) => {
      const source = readFileSync(file, "utf8");
      const io = importsOf(source).filter((module) => IO_MODULES.includes(module));
      if (/(^|[^.\w])fetch\(/m.test(source)) io.push("fetch()");
      return io.map((what) => `${path.relative(servicesDir, file)} uses ${what}`);
    });
    expect(offending, "domain/ is pure logic: move I/O to the service's machinery folder").toEqual([]);
  });

  it("has a README saying what it does, its endpoints and its configuration", () => {
    expect(exists(service, "README.md"), "README.md exists").toBe(true);
    const readme = read(service, "README.md");
    const introduction = readme
      .split(/^## /m)[0]
      .replace(/^# .*$/m, "")
      .trim();
    expect(introduction.length, "a paragraph before the first section says what the service does").toBeGreaterThan(40);
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1].trim());
    expect(sections).toContain("Endpoints");
    expect(sections).toContain("Configuration");
  });

  describe("built on a test platform", () => {
    let started: StartedService;
    const routes: RouteOptions[] = [];
    afterAll(() => started?.close());

    it("documents every route it registers in /openapi.json, with a summary or description", async () => {
      const manifest = await manifestOf(service);
      // The routes the service itself adds (the platform's own are added before its build).
      const watched: ServiceManifest<unknown, unknown> = {
        ...manifest,
        build: async (context) => {
          context.app.addHook("onRoute", (route) => void routes.push(route));
          await manifest.build(context);
        },
      };
      started = await startService(watched, { env: { ...QUIET_SERVICES_ENV } });
      const document = (await started.app.inject({ method: "GET", url: "/openapi.json" })).json();
      const documented = routes
        .filter((route) => !route.schema?.hide)
        .flatMap((route) => [route.method].flat().map((method) => ({ method: method.toLowerCase(), url: route.url })))
        .filter(({ method }) => method !== "head");
      expect(documented.length, "the service registers routes").toBeGreaterThan(0);
      const missing = documented.filter(({ method, url }) => {
        // OpenAPI writes Fastify's :id as {id} and a trailing wildcard * as {*}.
        const operation = document.paths?.[url.replace(/:(\w+)/g, "{$1}").replace(/\*$/, "{*}")]?.[method];
        return !operation?.summary && !operation?.description;
      });
      expect(missing, "routes missing from /openapi.json or without a summary or description").toEqual([]);
    });
  });
});
