/**
 * One list, checked: the deployed services are those of packages/deployment (`deployedServiceNames()`), and the
 * admin API is the platform's own. Each of them must be in every place a deployment reads, and nothing else may be:
 * docker-compose (a container, and the edge waiting for it), both nginx maps and where nginx finds each service, the
 * Kubernetes Deployments, Services, PodDisruptionBudgets, autoscalers and Ingress rules, and the README's table.
 * A failure names the service, the file and what to write there (docs/DEVELOPING.md, "Adding a service").
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { defaultPort, loadConfig, type ServiceName } from "@apiplat/config";
import { deployedService, deployedServiceNames } from "@apiplat/deployment";
import {
  composeConfig,
  edgeBodyLimits,
  kubernetesDir,
  nginxMap,
  nginxUpstreams,
  readmeServices,
  renderKustomization,
  repo,
  type KubernetesObject,
} from "./lib/deployment-files.js";

const deployed = deployedServiceNames();
const platform = ["admin", ...deployed].sort();
const portOf = (name: string) => (name === "admin" ? 3000 : defaultPort(name as ServiceName));
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();
const nginx = (file: string) => path.join(repo, "infra/nginx", file);
const edgeCopy = (file: string) => path.join(kubernetesDir, "base/edge", file);

/** The setting that turns a data service's own first load of its catalogue off: <NAME>_AUTOLOAD. */
const autoloadSetting = (name: string) => `${name.toUpperCase().replace(/-/g, "_")}_AUTOLOAD`;
/** The data services: those whose settings read <NAME>_AUTOLOAD (the catalogue's first load). */
const dataServices = deployed.filter((name) => {
  const settingsFile = path.join(repo, "services", name, "src/settings.ts");
  return existsSync(settingsFile) && readFileSync(settingsFile, "utf8").includes(autoloadSetting(name));
});

/**
 * What is wrong between the names a file has and the names it must have, one sentence each: a service missing there
 * (with what to add) or a name there that is not deployed. [] when they agree.
 */
function differences(found: Iterable<string>, wanted: readonly string[], where: string, add: (name: string) => string): string[] {
  const have = new Set(found);
  return [
    ...wanted.filter((name) => !have.has(name)).map((name) => `${name} is missing from ${where}: ${add(name)}`),
    ...sorted(have)
      .filter((name) => !wanted.includes(name))
      .map((name) => `${name} is in ${where} but is not a deployed service: remove it, or deploy it (@apiplat/${name} in packages/deployment/package.json)`),
  ];
}

describe("the deployed services in docker-compose", () => {
  let services: Record<string, any>;
  beforeAll(async () => {
    services = (await composeConfig()).services;
  });

  it("has one container per deployed service and the admin API, beside the infrastructure, and no other", () => {
    const infrastructure = ["catalogues", "mailpit", "migrate", "nginx", "postgres", "redis"];
    const containers = Object.keys(services).filter((name) => !infrastructure.includes(name));
    expect(
      differences(
        containers,
        platform,
        "docker-compose.yml",
        (name) => `add a container \`${name}\` (copy another service's: SERVICE: ${name}, its health check on port ${portOf(name)})`,
      ),
    ).toEqual([]);
  });

  it("starts the edge after every one of them", () => {
    const awaited = Object.keys(services.nginx.depends_on ?? {});
    expect(differences(awaited, platform, "docker-compose.yml's nginx depends_on", (name) => `add \`- ${name}\` to the list`)).toEqual([]);
  });

  it("runs each one's own entry point, checks its health on its port, and starts it after the migrations", () => {
    for (const name of platform.filter((name) => services[name])) {
      const service = services[name];
      expect(service.environment.SERVICE, name).toBe(name);
      expect(service.healthcheck.test.join(" "), name).toContain(`http://127.0.0.1:${portOf(name)}/health`);
      expect(service.depends_on.migrate, name).toEqual({ condition: "service_completed_successfully" });
      expect(service.volumes, name).toEqual(expect.arrayContaining([expect.stringMatching(/:\/data\/datasets:ro$/)]));
    }
  });

  it("starts the data services once their catalogues are loaded, and they do not load them themselves", () => {
    for (const name of deployed.filter((name) => services[name])) {
      const autoload = autoloadSetting(name);
      if (dataServices.includes(name)) {
        expect(services[name].depends_on.catalogues, `${name}: depends_on: *catalogue-depends`).toEqual({ condition: "service_completed_successfully" });
        expect(services[name].environment[autoload], `${name}: ${autoload}: "off"`).toBe("off");
      } else {
        expect(services[name].depends_on.catalogues, name).toBeUndefined();
      }
    }
  });
});

describe("the deployed services at the nginx edge", () => {
  it("routes each one's host, and each product on the gateway host by X-Gateway-Host", () => {
    const byHost = nginxMap(nginx("routing.conf"), "service_by_host");
    const byGateway = nginxMap(nginx("routing.conf"), "service_by_gateway_header");
    // The hooks host is the webhook relay's second host; the gateway host has no service of its own.
    const hostLabels = [...byHost].filter(([label]) => label !== "hooks" && label !== "gateway").map(([label]) => label);
    const fix = (name: string) => `add \`${name} ${name};\`, then cp infra/nginx/routing.conf deploy/kubernetes/base/edge/`;
    expect([
      ...differences(hostLabels, platform, "infra/nginx/routing.conf's map $service_by_host", fix),
      ...differences(byGateway.keys(), deployed, "infra/nginx/routing.conf's map $service_by_gateway_header", fix),
    ]).toEqual([]);
    for (const name of platform) if (byHost.has(name)) expect(byHost.get(name), `host label ${name}`).toBe(name);
    expect(byHost.get("hooks")).toBe("webhook-relay");
    for (const [label, service] of byGateway) expect(service, label).toBe(label);
  });

  it("knows where each one listens, in docker-compose and in Kubernetes", () => {
    const compose = nginxMap(nginx("service-addresses.conf"), "service_address");
    const kubernetes = nginxMap(edgeCopy("upstreams.conf"), "service_address");
    const upstreams = nginxUpstreams(edgeCopy("upstreams.conf"));
    expect([
      ...differences(compose.keys(), platform, "infra/nginx/service-addresses.conf", (name) => `add \`${name} ${name}:${portOf(name)};\``),
      ...differences(
        upstreams.keys(),
        platform,
        "deploy/kubernetes/base/edge/upstreams.conf's upstreams",
        (name) => `add \`upstream ${name} { server ${name}:${portOf(name)}; keepalive 16; }\``,
      ),
      ...differences(kubernetes.keys(), platform, "deploy/kubernetes/base/edge/upstreams.conf's map $service_address", (name) => `add \`${name} ${name};\``),
    ]).toEqual([]);
    for (const name of platform) {
      if (compose.has(name)) expect(compose.get(name), name).toBe(`${name}:${portOf(name)}`);
      if (kubernetes.has(name)) expect(kubernetes.get(name), name).toBe(name);
      if (upstreams.has(name)) expect(upstreams.get(name), name).toBe(`${name}:${portOf(name)}`);
    }
  });

  it("lets through every body a service takes: its own location in edge.conf when it takes more than the default", async () => {
    const limits = edgeBodyLimits(nginx("edge.conf"));
    const config = loadConfig({});
    const problems: string[] = [];
    for (const name of deployed) {
      const { manifest } = (await deployedService(name))!;
      const taken = typeof manifest.bodyLimit === "function" ? manifest.bodyLimit(manifest.settings!(config.env, config)) : (manifest.bodyLimit ?? 1024 * 1024);
      const edge = Math.min(limits.get(name) ?? limits.get("")!, limits.get("/")!);
      if (edge <= taken) {
        problems.push(
          `${name} takes bodies of ${taken} bytes but the edge stops them at ${edge}: add \`location = /__service/${name}\` with a client_max_body_size above it ` +
            `to infra/nginx/edge.conf (and to location /'s if larger), then cp infra/nginx/edge.conf deploy/kubernetes/base/edge/`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it("routes the same way in Kubernetes: its edge's shared files are copies of infra/nginx", () => {
    for (const file of ["routing.conf", "edge.conf", "proxy.conf"]) {
      const same = readFileSync(nginx(file), "utf8") === readFileSync(edgeCopy(file), "utf8");
      expect(same, `deploy/kubernetes/base/edge/${file} differs: cp infra/nginx/${file} deploy/kubernetes/base/edge/`).toBe(true);
    }
  });
});

describe("the deployed services in Kubernetes (the production overlay)", () => {
  let objects: KubernetesObject[];
  const named = (kind: string, component?: string) =>
    sorted(
      objects.filter((o) => o.kind === kind && (!component || o.metadata.labels?.["app.kubernetes.io/component"] === component)).map((o) => o.metadata.name),
    );
  const manifestFix = (kind: string) => (name: string) =>
    `give deploy/kubernetes/base/services/${name}.yaml its ${kind} (copy another service's file, port ${portOf(name)}) and list the file in deploy/kubernetes/base/kustomization.yaml`;
  beforeAll(async () => {
    objects = await renderKustomization("production");
  });

  it("has a Deployment, a Service, a PodDisruptionBudget and an autoscaler for each one, and for no other", () => {
    expect([
      ...differences(named("Deployment", "service"), platform, "the Kubernetes Deployments", manifestFix("Deployment")),
      ...differences(named("Service", "service"), platform, "the Kubernetes Services", manifestFix("Service")),
      ...differences(named("PodDisruptionBudget", "service"), platform, "the Kubernetes PodDisruptionBudgets", manifestFix("PodDisruptionBudget")),
      // The admin API runs one replica, so it has no autoscaler.
      ...differences(named("HorizontalPodAutoscaler", "service"), deployed, "the Kubernetes HorizontalPodAutoscalers", manifestFix("HorizontalPodAutoscaler")),
    ]).toEqual([]);
    for (const autoscaler of objects.filter((o) => o.kind === "HorizontalPodAutoscaler" && o.metadata.labels?.["app.kubernetes.io/component"] === "service")) {
      expect(autoscaler.spec.scaleTargetRef, autoscaler.metadata.name).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: autoscaler.metadata.name });
    }
  });

  it("runs each one's entry point on its port, behind the edge's upstream of the same name", () => {
    for (const deployment of objects.filter((o) => o.kind === "Deployment" && o.metadata.labels?.["app.kubernetes.io/component"] === "service")) {
      const container = deployment.spec.template.spec.containers[0];
      const name = deployment.metadata.name;
      expect(container.env.find((e: { name: string }) => e.name === "SERVICE")?.value, name).toBe(name);
      expect(container.ports.find((p: { name: string }) => p.name === "http")?.containerPort, name).toBe(portOf(name));
      const service = objects.find((o) => o.kind === "Service" && o.metadata.name === name)!;
      expect(service.spec.ports.find((p: { name: string }) => p.name === "http").port, name).toBe(portOf(name));
    }
  });

  it("has an Ingress rule for each one's host, to the edge, and for no other service", () => {
    const domain = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name.startsWith("apiplat-config"))!.data!.PUBLIC_DOMAIN;
    const rules = objects.filter((o) => o.kind === "Ingress").flatMap((o) => o.spec.rules as { host?: string; http: any }[]);
    const labels = rules
      .filter((r) => r.host)
      .map((r) => {
        expect(r.host!.endsWith(`.${domain}`), r.host).toBe(true);
        return r.host!.slice(0, -domain.length - 1);
      });
    expect(
      differences(
        labels.filter((l) => l !== "gateway" && l !== "hooks"),
        platform,
        "deploy/kubernetes/base/ingress.yaml",
        (name) => `add a rule for host ${name}.public-domain to the edge (copy another service's)`,
      ),
    ).toEqual([]);
    expect(labels).toEqual(expect.arrayContaining(["gateway", "hooks"]));
    for (const rule of rules) expect(rule.http.paths[0].backend.service, rule.host ?? "(any host)").toEqual({ name: "edge", port: { name: "http" } });
  });

  it("leaves the data services' first load to the catalogues Job", () => {
    const config = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name.startsWith("apiplat-config"))!.data!;
    const missing = dataServices.filter((name) => config[autoloadSetting(name)] !== "off");
    expect(
      missing.map((name) => `${name} loads its own catalogue in Kubernetes: add \`${autoloadSetting(name)}=off\` to deploy/kubernetes/base/platform.env`),
    ).toEqual([]);
  });

  it("names one public domain in the services' settings, the Ingress hosts and the edge's routing", () => {
    const config = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name.startsWith("apiplat-config"))!.data!;
    const edge = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name.startsWith("edge-config"))!.data!;
    const escaped = config.PUBLIC_DOMAIN.replace(/\./g, "\\.");
    expect(edge["public-domain.conf"].match(new RegExp(`\\\\.${escaped.replace(/\\/g, "\\\\")}\\\\\\.\\?\\$`, "g"))).toHaveLength(2);
    expect(config.WEBHOOK_RELAY_HOOKS_HOST).toBe(`hooks.${config.PUBLIC_DOMAIN}`);
    expect(config.EMAIL_PUBLIC_BASE_URL).toBe(`https://email-sending.${config.PUBLIC_DOMAIN}`);
  });
});

describe("the deployed services in the README", () => {
  it("has a row for each one and for the admin API, with its port, and no other", () => {
    const rows = readmeServices();
    expect(
      differences(
        rows.map((row) => row.name),
        platform,
        `the README's "What runs" table`,
        (name) => `add \`| ${name} | ${portOf(name)} | what it does | [services/${name}](services/${name}/README.md) |\``,
      ),
    ).toEqual([]);
    for (const { name, port } of rows)
      if (platform.includes(name)) expect(port, `the README's port of ${name} (packages/config/src/services.ts)`).toBe(portOf(name));
  });
});
