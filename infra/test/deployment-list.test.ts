/**
 * One list, checked: the deployed services are those of packages/deployment (`deployedServiceNames()`), and the
 * admin API is the platform's own. Each of them must be in every place a deployment reads, and nothing else may be:
 * docker-compose, both nginx maps and where nginx finds each service, the Kubernetes Deployments, Services,
 * PodDisruptionBudgets and Ingress rules, and the README's table.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { defaultPort, type ServiceName } from "@apiplat/config";
import { deployedServiceNames } from "@apiplat/deployment";
import {
  composeConfig,
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

describe("the deployed services in docker-compose", () => {
  let services: Record<string, any>;
  beforeAll(async () => {
    services = (await composeConfig()).services;
  });

  it("has one container per deployed service and the admin API, beside the infrastructure, and no other", () => {
    const infrastructure = ["catalogues", "mailpit", "migrate", "nginx", "postgres", "redis"];
    expect(sorted(Object.keys(services))).toEqual(sorted([...platform, ...infrastructure]));
  });

  it("runs each one's own entry point, checks its health on its port, and starts it after the migrations", () => {
    for (const name of platform) {
      const service = services[name];
      expect(service.environment.SERVICE, name).toBe(name);
      expect(service.healthcheck.test.join(" "), name).toContain(`http://127.0.0.1:${portOf(name)}/health`);
      expect(service.depends_on.migrate, name).toEqual({ condition: "service_completed_successfully" });
      expect(service.volumes, name).toEqual(expect.arrayContaining([expect.stringMatching(/:\/data\/datasets:ro$/)]));
    }
  });

  it("starts the data services once their catalogues are loaded, and they do not load them themselves", () => {
    for (const name of deployed) {
      // A data service is one whose settings read <NAME>_AUTOLOAD (the catalogue's first load).
      const autoload = `${name.toUpperCase().replace(/-/g, "_")}_AUTOLOAD`;
      const settingsFile = path.join(repo, "services", name, "src/settings.ts");
      if (existsSync(settingsFile) && readFileSync(settingsFile, "utf8").includes(autoload)) {
        expect(services[name].depends_on.catalogues, name).toEqual({ condition: "service_completed_successfully" });
        expect(services[name].environment[autoload], name).toBe("off");
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
    for (const name of platform) expect(byHost.get(name), `host label ${name}`).toBe(name);
    // The hooks host is the webhook relay's second host; the gateway host has no service of its own.
    expect(sorted([...byHost].filter(([label]) => label !== "hooks" && label !== "gateway").map(([label]) => label))).toEqual(platform);
    expect(byHost.get("hooks")).toBe("webhook-relay");
    expect(sorted(byGateway.keys())).toEqual(sorted(deployed));
    for (const [label, service] of byGateway) expect(service, label).toBe(label);
  });

  it("knows where each one listens, in docker-compose and in Kubernetes", () => {
    const compose = nginxMap(nginx("service-addresses.conf"), "service_address");
    expect(sorted(compose.keys())).toEqual(platform);
    for (const name of platform) expect(compose.get(name), name).toBe(`${name}:${portOf(name)}`);
    const kubernetes = nginxMap(edgeCopy("upstreams.conf"), "service_address");
    const upstreams = nginxUpstreams(edgeCopy("upstreams.conf"));
    expect(sorted(kubernetes.keys())).toEqual(platform);
    expect(sorted(upstreams.keys())).toEqual(platform);
    for (const name of platform) {
      expect(kubernetes.get(name), name).toBe(name);
      expect(upstreams.get(name), name).toBe(`${name}:${portOf(name)}`);
    }
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
  beforeAll(async () => {
    objects = await renderKustomization("production");
  });

  it("has a Deployment, a Service and a PodDisruptionBudget for each one, and for no other", () => {
    expect(named("Deployment", "service")).toEqual(platform);
    expect(named("Service", "service")).toEqual(platform);
    expect(named("PodDisruptionBudget", "service")).toEqual(platform);
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
    expect(sorted(labels.filter((l) => l !== "gateway" && l !== "hooks"))).toEqual(platform);
    expect(labels).toEqual(expect.arrayContaining(["gateway", "hooks"]));
    for (const rule of rules) expect(rule.http.paths[0].backend.service, rule.host ?? "(any host)").toEqual({ name: "edge", port: { name: "http" } });
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
  it("has a row for each one and for the admin API, and no other", () => {
    expect(sorted(readmeServices())).toEqual(platform);
  });
});
