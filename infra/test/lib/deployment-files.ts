/**
 * Reading the deployment files back: docker-compose's resolved configuration, the nginx maps, the Kubernetes objects
 * (rendered by `kubectl kustomize` where kubectl is installed, else by the `kustomize` package), the README's table.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { parse, parseAllDocuments } from "yaml";

const run = promisify(execFile);
export const repo = path.resolve(import.meta.dirname, "../../..");
export const kubernetesDir = path.join(repo, "deploy/kubernetes");

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}

/** docker-compose.yml as docker-compose resolves it (anchors, merges and variables applied). */
export async function composeConfig(): Promise<{ services: Record<string, any> }> {
  const { stdout } = await run("docker-compose", ["-f", path.join(repo, "docker-compose.yml"), "config"], {
    env: { ...process.env, ADMIN_TOKEN: "checked-only", EMAIL_SECRET: "checked-only-checked-only-checked-only" },
  });
  return parse(stdout);
}

/** The entries of one `map $source $name { ... }` block of an nginx file: key -> value (default excluded). */
export function nginxMap(file: string, name: string): Map<string, string> {
  const text = readFileSync(file, "utf8");
  const block = new RegExp(`map\\s+\\S+\\s+\\$${name}\\s*\\{([^}]*)\\}`).exec(text);
  if (!block) throw new Error(`${file}: no map for $${name}`);
  const entries = new Map<string, string>();
  for (const raw of block[1].split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    const match = /^(\S+)\s+(\S+);$/.exec(line);
    if (!match || match[1] === "default" || match[1] === "hostnames;") continue;
    entries.set(match[1], match[2].replace(/^"(.*)"$/, "$1"));
  }
  return entries;
}

/** The `upstream <name> { server <host>:<port>; }` blocks of an nginx file. */
export function nginxUpstreams(file: string): Map<string, string> {
  const upstreams = new Map<string, string>();
  for (const match of readFileSync(file, "utf8").matchAll(/upstream\s+(\S+)\s*\{\s*server\s+(\S+);/g)) upstreams.set(match[1], match[2]);
  return upstreams;
}

/**
 * The edge's body limit for each service that has a location of its own in edge.conf, under "" the limit of every
 * other service (the `/__service/` location), and under "/" the limit of `location /`, which every request passes
 * first, in bytes.
 */
export function edgeBodyLimits(file: string): Map<string, number> {
  const units: Record<string, number> = { "": 1, k: 1024, m: 1024 * 1024, g: 1024 * 1024 * 1024 };
  const limits = new Map<string, number>();
  for (const match of readFileSync(file, "utf8").matchAll(/location\s+=?\s*\/(?:__service\/(\S*))?\s*\{[^}]*?client_max_body_size\s+(\d+)([kmg]?);/gi)) {
    limits.set(match[1] ?? "/", Number(match[2]) * units[match[3].toLowerCase()]);
  }
  return limits;
}

export const KUBECTL = "/usr/bin/kubectl";

function kustomizeBinary(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve("kustomize/package.json")), "run.js");
}

export type Renderer = "kubectl" | "kustomize";

/** The renderer of this machine: kubectl's kustomize where kubectl exists, else the pinned kustomize package. */
export function defaultRenderer(): Renderer {
  return existsSync(KUBECTL) ? "kubectl" : "kustomize";
}

/** Renders a kustomization (a folder under deploy/kubernetes) into its objects. */
export async function renderKustomization(folder: string, renderer: Renderer = defaultRenderer()): Promise<KubernetesObject[]> {
  const dir = path.join(kubernetesDir, folder);
  const { stdout } =
    renderer === "kubectl"
      ? await run(KUBECTL, ["kustomize", dir], { maxBuffer: 64 * 1024 * 1024 })
      : await run(process.execPath, [kustomizeBinary(), "build", dir], { maxBuffer: 64 * 1024 * 1024 });
  return parseAllDocuments(stdout)
    .map((doc) => doc.toJSON() as KubernetesObject)
    .filter(Boolean);
}

/** The rows of the README's "What runs" table: each service's name and the port it states. */
export function readmeServices(): { name: string; port: number }[] {
  const readme = readFileSync(path.join(repo, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## What runs"));
  const table = section.slice(0, section.indexOf("\n\n", section.indexOf("|")));
  return table
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .slice(2)
    .map((line) => {
      const [, name, port] = line.split("|");
      return { name: name.trim(), port: Number(port.trim()) };
    });
}
