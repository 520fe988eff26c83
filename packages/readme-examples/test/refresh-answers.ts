/**
 * Re-records the answers a README shows: runs each curl example of the READMEs named on the command line, in order,
 * against the services they call (as the README-examples suite does), and replaces the ```json block that directly
 * follows the example with the answer, in the block's own layout (pretty or one line) and its own trimming: a list
 * shown shorter keeps its length, a text cut with "…" stays cut, fields the README left out stay out. Blocks
 * introduced by prose and answers that are not JSON are left as written.
 *
 *   bash scripts/pnpm.sh exec tsx packages/readme-examples/test/refresh-answers.ts services/news/README.md ...
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { SERVICE_PORTS, defaultPort, loadConfig, type ServiceName } from "@apiplat/config";
import { deployedServices } from "@apiplat/deployment";
import { createTestPlatform } from "@apiplat/testing";
import { curlExamples, localPorts, statusOf, STATUS_MARKER, withPorts, withStatusReport } from "./readme-curl.js";

const run = promisify(execFile);
const REPO_ROOT = resolve(import.meta.dirname, "../../..");
const readmes = process.argv.slice(2);
const examples = readmes.flatMap((readme) => curlExamples(readFileSync(join(REPO_ROOT, readme), "utf8"), readme));
const serviceAtPort = new Map<number, ServiceName>(Object.entries(SERVICE_PORTS).map(([name, port]) => [port, name as ServiceName]));
const wanted = new Set(examples.flatMap((example) => localPorts(example.command).map((port) => serviceAtPort.get(port))));

const platform = await createTestPlatform({
  env: { CURRENCY_FETCH_SCHEDULE: "off", CURRENCY_FETCH_ON_START: "false", LOG_LEVEL: "silent", DATASETS_DIR: loadConfig(process.env).datasetsDir },
});
const actualPort = new Map<number, number>();
const apps = [];
for (const service of (await deployedServices()).filter((s) => wanted.has(s.name))) {
  const app = await service.build(platform.deps);
  await app.listen({ port: 0, host: "127.0.0.1" });
  for (let i = 0; i < 600 && (await app.inject({ method: "GET", url: "/ready" })).statusCode !== 200; i++) await new Promise((r) => setTimeout(r, 250));
  actualPort.set(defaultPort(service.name), (app.server.address() as AddressInfo).port);
  apps.push(app);
}
const account = await platform.accounts.createAccount("readme answers");
await platform.accounts.subscribe(
  account.id,
  [...wanted].filter((name): name is ServiceName => name !== undefined),
  "MEGA",
);
const key = (await platform.accounts.createKey(account.id)).key;

for (const readme of readmes) {
  const cwd = mkdtempSync(join(tmpdir(), "readme-answers-"));
  for (const entry of readdirSync(REPO_ROOT)) if (!entry.startsWith(".") && entry !== "node_modules") symlinkSync(join(REPO_ROOT, entry), join(cwd, entry));
  const lines = readFileSync(join(REPO_ROOT, readme), "utf8").split("\n");
  let changed = 0;
  for (const example of examples.filter((e) => e.readme === readme)) {
    const { stdout } = await run("bash", ["-c", withStatusReport(withPorts(example.command, actualPort))], {
      cwd,
      env: { ...process.env, KEY: key },
      maxBuffer: 64 << 20,
    });
    const body = stdout.slice(0, stdout.lastIndexOf(STATUS_MARKER)).trim();
    const block = answerBlockAfter(lines, example.line - 1);
    if (!block || statusOf(stdout) === null) continue;
    let answer: unknown;
    try {
      answer = JSON.parse(body);
    } catch {
      continue;
    }
    const shown: unknown = JSON.parse(lines.slice(block.start, block.end).join("\n"));
    const pretty = block.end - block.start > 1 && /^ {2}"/.test(lines[block.start + 1] ?? "");
    const kept = refreshed(shown, answer);
    const text = pretty ? JSON.stringify(kept, null, 2) : JSON.stringify(kept);
    lines.splice(block.start, block.end - block.start, ...text.split("\n"));
    changed++;
  }
  writeFileSync(join(REPO_ROOT, readme), lines.join("\n"));
  rmSync(cwd, { recursive: true, force: true });
  console.log(`${readme}: ${changed} answers re-recorded`);
}
for (const app of apps) await app.close();
await platform.close();

/** The lines [start, end) of the ```json block right after the shell block holding line `from`, blank lines between. */
function answerBlockAfter(lines: string[], from: number): { start: number; end: number } | null {
  let i = from;
  while (i < lines.length && !/^\s*```\s*$/.test(lines[i])) i++;
  i++;
  while (i < lines.length && lines[i].trim() === "") i++;
  if (!/^\s*```json\s*$/.test(lines[i] ?? "")) return null;
  const start = i + 1;
  let end = start;
  while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++;
  return { start, end };
}

/** The answer, trimmed as the README trimmed what it showed. */
function refreshed(shown: unknown, answer: unknown): unknown {
  if (Array.isArray(shown) && Array.isArray(answer)) {
    return answer.slice(0, Math.max(shown.length, Math.min(answer.length, 1))).map((item, i) => (i < shown.length ? refreshed(shown[i], item) : item));
  }
  if (isObject(shown) && isObject(answer)) {
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(answer)) {
      if (key in shown) kept[key] = refreshed(shown[key], value);
    }
    return kept;
  }
  if (typeof shown === "string" && typeof answer === "string" && shown.endsWith("…") && answer.startsWith(shown.slice(0, -1))) return shown;
  return answer;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
