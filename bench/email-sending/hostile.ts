/**
 * Hostile templates and HTML against a running email service (its own process, pinned to core 0 when taskset exists):
 * for each shape, the answer, the service CPU the request took, and for an accepted message the service CPU spent
 * until the SMTP sink received it (the delivery worker's share: link rewriting, MIME building, DKIM).
 *
 * Run:    bash scripts/pnpm.sh exec tsx bench/email-sending/hostile.ts
 * Before: BENCH_ROOT=/path/to/another/checkout bash scripts/pnpm.sh exec tsx bench/email-sending/hostile.ts
 *         runs that checkout's service (its bench/email-sending/serve.ts) with the same requests; shapes marked slow
 *         (minutes on an unbounded service) are skipped there unless BENCH_ALL=1.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { SMTPServer } from "smtp-server";
import { onCoreZero } from "../lib/cores.js";
import { cpuSeconds } from "../lib/proc-cpu.js";

const MIB = 1024 * 1024;
const root = path.resolve(process.env.BENCH_ROOT ?? ".");
const foreign = root !== path.resolve(".");
const runAll = process.env.BENCH_ALL === "1";

const received = new Map<string, () => void>();
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  size: 64 * MIB,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      const id = /X-Email-ID: (msg_[0-9a-f]{24})/i.exec(
        Buffer.concat(chunks)
          .subarray(0, 64 * 1024)
          .toString("latin1"),
      )?.[1];
      if (id) received.get(id)?.();
      callback();
    });
  },
});
await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", () => resolve()));
const sinkPort = (sink.server.address() as { port: number }).port;

const command = onCoreZero([process.execPath, "--import", "tsx", "bench/email-sending/serve.ts"]);
const child = spawn(command[0], command.slice(1), {
  cwd: root,
  env: { ...process.env, SMTP_URL: `smtp://127.0.0.1:${sinkPort}`, BENCH_PLAN: "MEGA" },
  stdio: ["ignore", "pipe", "inherit"],
});
const { port, key, pid } = await new Promise<{ port: number; key: string; pid: number }>((resolve) => {
  createInterface({ input: child.stdout! }).once("line", (line) => resolve(JSON.parse(line)));
});
const base = `http://127.0.0.1:${port}`;
const headers = { "x-gateway-key": key, "x-gateway-host": "email-sending.api.local", "content-type": "application/json" };

async function call(method: string, url: string, body?: unknown) {
  const cpu = cpuSeconds(pid);
  const started = performance.now();
  const res = await fetch(`${base}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, wallMs: performance.now() - started, cpuMs: (cpuSeconds(pid) - cpu) * 1000 };
}

/** CPU of the service from now until the sink has the message (the worker's share), or null when it never comes. */
async function deliveryCpuMs(id: string, cpuAtAccept: number, timeoutMs = 600_000): Promise<number | null> {
  const arrived = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    received.set(id, () => (clearTimeout(timer), resolve(true)));
  });
  return (await arrived) ? (cpuSeconds(pid) - cpuAtAccept) * 1000 : null;
}

const rows: string[] = [];
function report(shape: string, outcome: string, requestCpu: number, wall: number, delivery: number | null | "-") {
  const line = `| ${shape} | ${outcome} | ${requestCpu.toFixed(0)} | ${wall.toFixed(0)} | ${delivery === "-" ? "-" : delivery === null ? "not delivered" : delivery.toFixed(0)} |`;
  rows.push(line);
  console.log(line);
}

const nested = (depth: number) => "{{#a}}".repeat(depth) + "{{/a}}".repeat(depth);
let templateCount = 0;

/** Saves a template and renders it: the render's CPU, or the save's refusal. */
async function template(shape: string, html: string, variables: object, slow = false) {
  if (slow && foreign && !runAll) return report(shape, "skipped (minutes unbounded)", 0, 0, "-");
  const name = `t${++templateCount}`;
  const saved = await call("POST", "/templates", { name, subject: "s", html });
  if (saved.status !== 201) return report(shape, `save ${saved.status}`, saved.cpuMs, saved.wallMs, "-");
  const rendered = await call("POST", `/templates/${name}/render`, { variables });
  report(
    shape,
    `render ${rendered.status}${rendered.status === 200 ? ` (${JSON.parse(rendered.text).data.html.length} chars)` : ""}`,
    rendered.cpuMs,
    rendered.wallMs,
    "-",
  );
}

/** Sends `html` with click tracking: the accept's CPU, then the delivery's. */
async function message(shape: string, html: string, slow = false) {
  if (slow && foreign && !runAll) return report(shape, "skipped (minutes unbounded)", 0, 0, "-");
  const cpuBefore = cpuSeconds(pid);
  const res = await call("POST", "/send", { to: "reader@example.com", subject: "hostile", html, track_clicks: true });
  if (res.status !== 202) return report(shape, `${res.status} ${JSON.parse(res.text).error?.code ?? ""}`, res.cpuMs, res.wallMs, "-");
  const delivery = await deliveryCpuMs(JSON.parse(res.text).data.id, cpuBefore + res.cpuMs / 1000);
  report(shape, "202", res.cpuMs, res.wallMs, delivery);
}

console.log(`service from ${root}\n`);
console.log("| shape | answer | request CPU ms | request wall ms | delivery CPU ms |\n|---|---|---|---|---|");
await template("template {{#a}} x20, a = [1, 2]", nested(20), { a: [1, 2] });
await template("template {{#a}} x22, a = [1, 2]", nested(22), { a: [1, 2] });
await template("template {{#a}} x24, a = [1, 2] (the attack)", nested(24), { a: [1, 2] }, true);
await template("template {{#a}} x3,000", nested(3000), { a: [1] });
await template("template {{#a}} x16, a = [1, 2] (deepest accepted)", nested(16), { a: [1, 2] });
await template("template {{#a}}x{{/a}}, 124,998 items (250,000 steps)", "{{#a}}x{{/a}}", { a: Array(124_998).fill(0) });
await template("template {{{v}}}, v of 5 MiB - 1", "{{{v}}}", { v: "x".repeat(5 * MIB - 1) });
await template("template 10,000 tags {{a}}, a of 500 chars", "{{a}}".repeat(10_000), { a: "y".repeat(500) });

const filler = (html: string, size: number) => html + "<p>" + "z".repeat(size - html.length - 7) + "</p>";
const links = (n: number) => Array.from({ length: n }, (_, i) => `<a href="https://shop.example.com/p/${i}">${i}</a>`).join("");
await message("html '<a ' x20,000", "<a ".repeat(20_000));
await message("html '<a ' x80,000 (the attack)", "<a ".repeat(80_000));
await message("html '<a ' x1,747,626 (5 MiB)", "<a ".repeat(Math.floor((5 * MIB) / 3)), true);
await message("html unclosed href of 5 MiB", '<a href="https://shop.example.com/' + "x".repeat(5 * MIB - 34));
await message("html one <a> with 1.3 million attributes (5 MiB)", "<a " + "h=1 ".repeat((5 * MIB - 4) / 4) + ">");
await message("html 1,000 links + text to 5 MiB", filler(links(1_000), 5 * MIB));
await message("html 150,000 links (5 MiB)", '<a href="https://l.example.com/">x</a>'.repeat(Math.floor((5 * MIB) / 38)));

child.kill("SIGTERM");
sink.close();
await new Promise((resolve) => child.once("exit", resolve));
process.exit(0);
