/**
 * The Kubernetes manifests render (kubectl kustomize where kubectl is installed, the pinned kustomize package
 * elsewhere, and both agree), and every rendered object is valid against the strict JSON Schemas of the Kubernetes
 * release pinned in infra/package.json (kubernetes-types): no missing required field, no field the API does not
 * have. The edge's nginx configuration for Kubernetes passes nginx -t and routes requests as ingress-nginx hands
 * them over.
 */
import { execFile, spawn } from "node:child_process";
import { createServer, request, type Server } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Ajv, type ValidateFunction } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { deployedServiceNames } from "@apiplat/deployment";
import { defaultRenderer, kubernetesDir, renderKustomization, type KubernetesObject } from "./lib/deployment-files.js";
import { definitionKey, kubernetesDefinitions, kubernetesTypesVersion } from "./lib/kubernetes-schemas.js";

const run = promisify(execFile);

/** One validator per apiVersion and kind, compiled on first use from the pinned release's definitions. */
function kubernetesValidator(): (object: KubernetesObject) => string[] {
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
  ajv.addSchema({ $id: "kubernetes", definitions: kubernetesDefinitions() });
  const compiled = new Map<string, ValidateFunction>();
  return (object) => {
    const key = definitionKey(object.apiVersion, object.kind);
    if (!ajv.getSchema(`kubernetes#/definitions/${key}`)) return [`no schema for ${object.apiVersion} ${object.kind}`];
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv.compile({ $ref: `kubernetes#/definitions/${key}` })));
    if (validate(object)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}${e.params.additionalProperty ? `: ${e.params.additionalProperty}` : ""}`);
  };
}

const clone = <T>(value: T): T => structuredClone(value);

describe("the Kubernetes manifests", () => {
  let validate: (object: KubernetesObject) => string[];
  let base: KubernetesObject[];
  let production: KubernetesObject[];
  /** The production overlay rendered by the other renderer, where this machine has both (started with the rest). */
  let otherRendering: Promise<KubernetesObject[]> | null;

  beforeAll(async () => {
    otherRendering = defaultRenderer() === "kubectl" ? renderKustomization("production", "kustomize") : null;
    otherRendering?.catch(() => {});
    validate = kubernetesValidator();
    [base, production] = await Promise.all([renderKustomization("base"), renderKustomization("production")]);
  });

  it(`are valid objects of Kubernetes ${kubernetesTypesVersion()}, unknown fields refused`, () => {
    const invalid: string[] = [];
    for (const object of [...base, ...production]) {
      if (!object.apiVersion || !object.kind || !object.metadata?.name) invalid.push(`an object without apiVersion, kind or name`);
      for (const error of validate(object)) invalid.push(`${object.kind} ${object.metadata.name}: ${error}`);
    }
    expect(invalid).toEqual([]);
    const counts = (objects: KubernetesObject[]) =>
      Object.fromEntries([...new Set(objects.map((o) => o.kind))].sort().map((k) => [k, objects.filter((o) => o.kind === k).length]));
    console.log(
      `Kubernetes objects validated: ${base.length} (base) + ${production.length} (production) = ${base.length + production.length}`,
      counts(production),
    );
    // Each deployed service and the admin API, and the edge: a Deployment, a Service and a PodDisruptionBudget.
    const workloads = deployedServiceNames().length + 2;
    for (const kind of ["Deployment", "Service", "PodDisruptionBudget"])
      expect(
        production.filter((o) => o.kind === kind),
        kind,
      ).toHaveLength(workloads);
  });

  it("refuse a misspelled field, a missing required one and a wrong type: the validator checks", () => {
    const deployment = production.find((o) => o.kind === "Deployment" && o.metadata.name === "text-toolkit")!;
    expect(validate(deployment)).toEqual([]);
    const misspelled = clone(deployment);
    misspelled.spec.template.spec.containers[0].imagePulPolicy = "Always";
    expect(validate(misspelled)).toEqual(["/spec/template/spec/containers/0 must NOT have additional properties: imagePulPolicy"]);
    const nested = clone(deployment);
    nested.spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem = true;
    expect(validate(nested).join()).toContain("readOnlyRootFileSystem");
    const missing = clone(deployment);
    delete missing.spec.selector;
    expect(validate(missing).join()).toContain("must have required property 'selector'");
    const wrongType = clone(deployment);
    wrongType.spec.template.spec.containers[0].ports[0].containerPort = "3002";
    expect(validate(wrongType).join()).toContain("must be number");
    const wrongVersion = clone(production.find((o) => o.kind === "HorizontalPodAutoscaler")!);
    wrongVersion.spec.metrics[0].resource.target.averageUtilisation = 70;
    expect(validate(wrongVersion).join()).toContain("averageUtilisation");
    expect(validate({ ...deployment, apiVersion: "apps/v1beta9" })).toEqual(["no schema for apps/v1beta9 Deployment"]);
  });

  it("render the same with the kustomize package as with kubectl, so that a machine without kubectl checks the same", async () => {
    if (!otherRendering) return; // no kubectl here: the package rendered them above
    expect(await otherRendering).toEqual(production);
  });

  it("run every pod non-root, without privilege escalation or capabilities, with seccomp, on a read-only root", () => {
    const pods = production.flatMap((o) =>
      o.kind === "Deployment" || o.kind === "Job" ? [{ name: `${o.kind} ${o.metadata.name}`, spec: o.spec.template.spec }] : [],
    );
    for (const { name, spec } of pods) {
      expect(spec.securityContext, name).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } });
      expect(spec.automountServiceAccountToken, name).toBe(false);
      expect(spec.enableServiceLinks, name).toBe(false);
      for (const container of spec.containers) {
        expect(container.securityContext, name).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          privileged: false,
          capabilities: { drop: ["ALL"] },
        });
        expect(
          container.volumeMounts.find((m: { mountPath: string }) => m.mountPath === "/tmp"),
          `${name}: a writable /tmp`,
        ).toBeTruthy();
        expect(container.resources.requests.memory && container.resources.limits.memory, `${name}: memory request and limit`).toBeTruthy();
      }
    }
    const services = production.filter((o) => o.kind === "Deployment" && o.metadata.labels?.["app.kubernetes.io/component"] === "service");
    for (const deployment of services) {
      const container = deployment.spec.template.spec.containers[0];
      expect(container.readinessProbe.httpGet.path, deployment.metadata.name).toBe("/ready");
      expect(container.livenessProbe.httpGet.path, deployment.metadata.name).toBe("/health");
      expect(container.startupProbe.httpGet.path, deployment.metadata.name).toBe("/health");
    }
  });

  it("keep every secret out: the Secret is referenced, never defined", () => {
    expect([...base, ...production].filter((o) => o.kind === "Secret").map((o) => o.metadata.name)).toEqual([]);
    const referenced = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === "object") {
        const { secretKeyRef } = value as { secretKeyRef?: { name: string; key: string } };
        if (secretKeyRef?.name === "apiplat-secrets") referenced.add(secretKeyRef.key);
        Object.values(value).forEach(walk);
      }
    };
    walk(production);
    expect([...referenced].sort()).toEqual([
      "ADMIN_TOKEN",
      "DATABASE_URL",
      "EMAIL_SECRET",
      "GATEWAY_PROXY_SECRET",
      "REDIS_URL",
      "SAFE_BROWSING_API_KEY",
      "SMTP_URL",
      "YOUTUBE_API_KEY",
    ]);
    expect(JSON.stringify(production)).not.toMatch(/postgres(ql)?:\/\/|rediss?:\/\/|smtps?:\/\//);
  });

  it("give the edge a configuration that routes as ingress-nginx hands requests over (nginx on loopback)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "nginx-k8s-"));
    const edge = path.join(kubernetesDir, "base/edge");
    for (const file of readdirSync(edge).filter((f) => f.endsWith(".conf"))) copyFileSync(path.join(edge, file), path.join(dir, file));
    copyFileSync(path.join(kubernetesDir, "production/public-domain.conf"), path.join(dir, "public-domain.conf"));
    // Here "ingress-nginx" is this test, on loopback.
    writeFileSync(path.join(dir, "trusted-proxies.conf"), "set_real_ip_from 127.0.0.1;\nreal_ip_header X-Forwarded-For;\n");
    // Two stand-ins answer with their name and what they were sent: the URL shortener, and every other service.
    const servers = await Promise.all(["url-shortener", "other"].map((name) => echoServer(name)));
    const [shortener, other] = servers.map((s) => (s.address() as AddressInfo).port);
    // nginx resolves the upstreams' Service names when it starts; here they are loopback addresses.
    const upstreams = readFileSync(path.join(dir, "upstreams.conf"), "utf8").replace(
      /server ([a-z-]+):\d+;/g,
      (_, name: string) => `server 127.0.0.1:${name === "url-shortener" ? shortener : other};`,
    );
    writeFileSync(path.join(dir, "upstreams.conf"), upstreams);
    const port = await freePort();
    // /tmp is this folder; a test's stdout may be a socket, which nginx cannot open as a file.
    const conf = readFileSync(path.join(dir, "nginx.conf"), "utf8")
      .replaceAll("/tmp/", `${dir}/`)
      .replace("access_log /dev/stdout;", "access_log off;")
      .replace("worker_processes 2;", "worker_processes 1;")
      .replace("listen 8080 default_server;", `listen 127.0.0.1:${port} default_server;`);
    writeFileSync(path.join(dir, "nginx.conf"), conf);
    const { stderr } = await run("nginx", ["-t", "-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "error.log")]);
    expect(stderr).toContain("test is successful");
    const nginx = spawn("nginx", ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "error.log"), "-g", "daemon off;"], { stdio: "ignore" });
    try {
      const call = (headers: Record<string, string>) => get(`http://127.0.0.1:${port}/uuid`, headers);
      await waitFor(() =>
        get(`http://127.0.0.1:${port}/nginx-health`, {}).then(
          (r) => r.status === 200,
          () => false,
        ),
      );
      // ingress-nginx sets X-Forwarded-For to the client it saw and says the client used https.
      const viaGateway = await call({
        host: "gateway.api.example.com",
        "x-gateway-host": "news.api.example.com",
        "x-forwarded-for": "203.0.113.9",
        "x-forwarded-proto": "https",
      });
      expect(viaGateway.body).toMatchObject({ name: "other", url: "/uuid" });
      expect(viaGateway.body.headers).toMatchObject({
        host: "gateway.api.example.com",
        "x-forwarded-for": "203.0.113.9",
        "x-forwarded-proto": "https",
        "x-gateway-host": "news.api.example.com",
      });
      expect((await call({ host: "text-toolkit.api.example.com" })).body.name).toBe("other");
      // docker-compose's domain is not this overlay's: such a host is a customer's domain, the URL shortener's.
      expect((await call({ host: "text-toolkit.api.local" })).body.name).toBe("url-shortener");
      const unknown = await call({ host: "gateway.api.example.com", "x-gateway-host": "text-toolkit.api.local" });
      expect(unknown.status).toBe(404);
    } finally {
      nginx.kill("SIGQUIT");
      for (const server of servers) server.close();
    }
  });
});

function echoServer(name: string): Promise<Server> {
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ name, url: req.url, headers: req.headers }));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createNetServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A GET with headers of our choosing (fetch will not send a Host header). */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let data = "";
      res.on("data", (chunk) => (data += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(data) }));
    })
      .on("error", reject)
      .end();
  });
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("nginx did not start");
}
