/**
 * Every curl example of the root README and of every services/<name>/README.md, run verbatim with the real curl (after
 * `export KEY=...`, as the root README says) against every deployed service, each on an ephemeral loopback port. Each
 * README's examples run top to bottom in a directory of their own, so an example may use what an earlier one made.
 * Nothing here may leave this machine: an example naming any other host is never run.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVICE_PORTS, defaultPort, loadConfig, type ServiceName } from "@apiplat/config";
import { deployedServices } from "@apiplat/deployment";
import type { ServiceApp } from "@apiplat/service-kit";
import { createTestPlatform, untilReady, type TestPlatform } from "@apiplat/testing";
import { hostsNamed, LOCAL_HOSTS, localPorts, readmeExamples, statusOf, withPorts, withStatusReport, type CurlExample } from "./readme-curl.js";

const run = promisify(execFile);
const REPO_ROOT = resolve(import.meta.dirname, "../../..");
const EXAMPLE_TIMEOUT_MS = 60_000;

interface Rule {
  readme: string;
  /** A piece of the command that tells the example apart from the others of its README. */
  includes: string;
  reason: string;
}

/** Examples that name a host other than this machine, or make the service look one up: never run. */
const REACHES_THE_INTERNET: Rule[] = [
  { readme: "services/ocr/README.md", includes: "https://example.com/scan.pdf", reason: "reaches the internet (the service downloads the PDF)" },
  {
    readme: "services/pdf-generation/README.md",
    includes: '169.254.169.254/latest/meta-data/\\">',
    reason: "reaches the internet (names the metadata address; the guard refuses it, but the page is rendered)",
  },
  { readme: "services/pdf-generation/README.md", includes: '"url":"https://example.com/report"', reason: "reaches the internet (the browser loads the page)" },
  { readme: "services/pdf-generation/README.md", includes: '"url":"http://169.254.169.254/', reason: "reaches the internet (names the metadata address)" },
  {
    readme: "services/url-shortener/README.md",
    includes: "https://",
    reason: "reaches the internet (the safety check resolves the target's host through DNS)",
  },
  { readme: "services/url-shortener/README.md", includes: "/verify", reason: "reaches the internet (verification looks the domain's CNAME up through DNS)" },
  { readme: "services/url-shortener/README.md", includes: '{"domain":', reason: "reaches the internet (registration looks the domain's CNAME up through DNS)" },
];

const WEBHOOK_INBOX_ID =
  "needs an inbox id ($ID, $RID, $PID) that POST /create makes: ids are server-made UUIDs, one shell command cannot carry them to the next";
const NEEDS_A_SKIPPED_LINK = "needs a link (spring-sale, bee-link) that a skipped example creates";

/** Examples that cannot run verbatim here, and why. */
const CANNOT_RUN: Rule[] = [
  ...["$ID", "$RID", "$PID", "/h/99da9d1f-"].map((includes) => ({ readme: "services/webhook-relay/README.md", includes, reason: WEBHOOK_INBOX_ID })),
  ...["spring-sale", "bee-link"].map((includes) => ({ readme: "services/url-shortener/README.md", includes, reason: NEEDS_A_SKIPPED_LINK })),
  { readme: "services/summarization/README.md", includes: "127.0.0.1:42097", reason: "summarizes a page served by the reader's own server (127.0.0.1:42097)" },
  { readme: "services/email-sending/README.md", includes: "/messages/msg_", reason: "names a message id that an earlier run returned" },
  { readme: "services/email-sending/README.md", includes: "/unsubscribe/2b90f70a", reason: "uses an unsubscribe token that an earlier message carried" },
];

/** Examples that document a refusal: they must get exactly this status. */
const DOCUMENTED_ERRORS: Array<{ readme: string; includes: string; status: number }> = [
  { readme: "services/embeddings/README.md", includes: "/embed/multilingual", status: 503 },
  { readme: "services/currency-exchange/README.md", includes: "amount=-5", status: 400 },
  { readme: "services/geocoding/README.md", includes: "limit=101", status: 400 },
  { readme: "services/geocoding/README.md", includes: "lat=91", status: 400 },
  { readme: "services/geocoding/README.md", includes: "language=xx", status: 400 },
  { readme: "services/geocoding/README.md", includes: "/places/1'", status: 404 },
  { readme: "services/time-zone/README.md", includes: "disambiguation=reject", status: 422 },
  { readme: "services/time-zone/README.md", includes: "tz=Europe/Berln", status: 400 },
  { readme: "services/url-shortener/README.md", includes: "/nope123", status: 404 },
  { readme: "services/webhook-relay/README.md", includes: "a\\u0000b", status: 400 },
  { readme: "services/news/README.md", includes: "limit=500", status: 400 },
  { readme: "services/news/README.md", includes: "cursor=bogus", status: 400 },
  { readme: "services/real-estate/README.md", includes: "search?lat=38.5&radius_km=3", status: 400 },
  { readme: "services/real-estate/README.md", includes: "3526%20Hihg%20St", status: 404 },
  { readme: "services/real-estate/README.md", includes: "3526%20High%20St&date=2015-01-01", status: 422 },
  { readme: "services/email-sending/README.md", includes: '"category":"marketing"', status: 422 },
  { readme: "services/video-analytics/README.md", includes: "trending?country=de", status: 404 },
  { readme: "services/product-data/README.md", includes: 'product/B07CV4L6H"', status: 400 },
  { readme: "services/product-data/README.md", includes: "/product/B000000000", status: 404 },
  { readme: "services/product-data/README.md", includes: "search?limit=101", status: 400 },
  { readme: "services/product-data/README.md", includes: "cursor=bogus", status: 400 },
  { readme: "services/product-data/README.md", includes: "locale=UK", status: 400 },
  { readme: "services/company-data/README.md", includes: 'search?sector=tech"', status: 400 },
  { readme: "services/company-data/README.md", includes: "domain/example.org", status: 404 },
  { readme: "services/search-results/README.md", includes: "num=101", status: 400 },
];

const NOT_A_DEPLOYED_SERVICE: Record<number, string> = {
  3000: "the admin API (bearer ADMIN_TOKEN), not a product service behind the gateway",
  3099: "the service template, which is never deployed",
};

function ruleFor<T extends { readme: string; includes: string }>(rules: T[], example: CurlExample): T | undefined {
  return rules.find((rule) => rule.readme === example.readme && example.command.includes(rule.includes));
}

const examples = readmeExamples(REPO_ROOT);
const services = await deployedServices();
const deployedPorts = new Set(services.map((service) => defaultPort(service.name)));
const serviceAtPort = new Map<number, ServiceName>(Object.entries(SERVICE_PORTS).map(([name, port]) => [port, name as ServiceName]));

/** The recorded datasets, as `npm start` finds them (DATASETS_DIR, or ../shared/datasets next to the checkout). */
const DATASETS_DIR = loadConfig(process.env).datasetsDir;

/** Why an example is not run, or null when it runs. */
function skipReason(example: CurlExample): string | null {
  const rule = ruleFor(REACHES_THE_INTERNET, example) ?? ruleFor(CANNOT_RUN, example);
  if (rule) return rule.reason;
  if (example.readme === "services/currency-exchange/README.md" && !existsSync(join(DATASETS_DIR, "currency-exchange"))) {
    return "needs the recorded rate feeds the service seeds itself from (set DATASETS_DIR: ../shared/datasets is not next to this checkout)";
  }
  const foreign = hostsNamed(example.command).filter((host) => !LOCAL_HOSTS.has(host));
  if (foreign.length > 0) return `reaches the internet (names ${foreign.join(", ")}; not reviewed)`;
  for (const port of localPorts(example.command)) {
    if (deployedPorts.has(port)) continue;
    return NOT_A_DEPLOYED_SERVICE[port] ?? `${serviceAtPort.get(port) ?? `port ${port}`} is not deployed in this checkout`;
  }
  return null;
}

const counts = { run: 0, skipped: new Map<string, number>() };
let platform: TestPlatform;
const apps: ServiceApp[] = [];
const actualPort = new Map<number, number>();
let key = "";

beforeAll(async () => {
  platform = await createTestPlatform({
    // No scheduled or start-up fetches from the internet: only the examples' own requests, all to this machine.
    // The recorded rate feeds seed currency-exchange at build, as on `npm start` without network. The inbound SMTP
    // listener on a port of its own: the fuzz suite may be starting every service beside this file.
    env: { CURRENCY_FETCH_SCHEDULE: "off", CURRENCY_FETCH_ON_START: "false", EMAIL_INBOUND_PORT: "0", LOG_LEVEL: "silent", DATASETS_DIR },
  });
  for (const service of services) {
    const app = await service.build(platform.deps);
    apps.push(app);
    await app.listen({ port: 0, host: "127.0.0.1" });
    actualPort.set(defaultPort(service.name), (app.server.address() as AddressInfo).port);
  }
  // As a reader would after `npm start`: every service ready (the catalogues loaded) before the first example.
  await Promise.all(apps.map((app) => untilReady(app, { intervalMs: 250 })));
  const account = await platform.accounts.createAccount("readme examples");
  await platform.accounts.subscribe(
    account.id,
    services.map((service) => service.name),
    "MEGA",
  );
  key = (await platform.accounts.createKey(account.id)).key;
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await platform?.close();
  const skipped = [...counts.skipped].map(([reason, count]) => `  ${count} × ${reason}`).join("\n");
  console.log(`readme examples: ${counts.run} run, ${[...counts.skipped.values()].reduce((a, b) => a + b, 0)} skipped\n${skipped}`);
});

/** A directory of the README's own, where its examples write files and find the repository's files by their paths. */
function workingDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), "readme-examples-"));
  for (const entry of readdirSync(REPO_ROOT)) {
    if (!entry.startsWith(".") && entry !== "node_modules") symlinkSync(join(REPO_ROOT, entry), join(dir, entry));
  }
  return dir;
}

const readmes = [...new Set(examples.map((example) => example.readme))];

describe.each(readmes)("%s", (readme) => {
  let cwd: string;
  beforeAll(() => {
    cwd = workingDirectory();
  });
  afterAll(() => {
    rmSync(cwd, { recursive: true, force: true });
  });

  for (const example of examples.filter((candidate) => candidate.readme === readme)) {
    const title = `line ${example.line}: ${example.command.split("\n")[0].slice(0, 110)}`;
    const reason = skipReason(example);
    if (reason) {
      counts.skipped.set(reason, (counts.skipped.get(reason) ?? 0) + 1);
      it.skip(`${title} (skipped: ${reason})`, () => {});
      continue;
    }
    it(title, async () => {
      counts.run++;
      expect(localPorts(example.command), "an example calls a service at http://127.0.0.1:<port>").not.toHaveLength(0);
      const command = withStatusReport(withPorts(example.command, actualPort));
      const { stdout } = await run("bash", ["-c", command], {
        cwd,
        env: { ...process.env, KEY: key },
        timeout: EXAMPLE_TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
      }).catch((error: { code?: number; stdout?: string; stderr?: string }) => {
        throw new Error(`curl exited ${error.code}: ${error.stderr ?? ""}\n${(error.stdout ?? "").slice(0, 500)}`);
      });
      const status = statusOf(stdout);
      const documented = ruleFor(DOCUMENTED_ERRORS, example);
      const body = stdout.slice(0, 600);
      if (documented) expect(status, body).toBe(documented.status);
      else expect(status, body).toBeLessThan(400);
    });
  }
});
