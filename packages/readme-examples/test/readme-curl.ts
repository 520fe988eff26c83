/** The curl examples of a README: what a reader copies from its ```sh / ```bash blocks. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export interface CurlExample {
  /** The README, relative to the repository root. */
  readme: string;
  /** 1-based line of the README where the command starts. */
  line: number;
  /** The command as written, continuation lines joined with their backslash-newline. */
  command: string;
}

/** The root README and every services/<name>/README.md, so a service landing later is picked up without a change. */
export function readmePaths(repoRoot: string): string[] {
  const servicesDir = join(repoRoot, "services");
  const serviceReadmes = readdirSync(servicesDir)
    .sort()
    .map((name) => join(servicesDir, name, "README.md"))
    .filter((path) => existsSync(path));
  return [join(repoRoot, "README.md"), ...serviceReadmes];
}

/** Commands of the fenced sh/bash blocks, joined over trailing backslashes; only those starting with `curl`. */
export function curlExamples(markdown: string, readme: string): CurlExample[] {
  const lines = markdown.split("\n");
  const examples: CurlExample[] = [];
  let inShellBlock = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const fence = /^\s*```\s*([\w-]*)/.exec(line);
    if (fence) {
      inShellBlock = !inShellBlock && ["sh", "bash", "shell"].includes(fence[1]);
      continue;
    }
    if (!inShellBlock) continue;
    const start = index;
    let command = line;
    while ((/\\$/.test(lines[index]) || insideQuotes(command)) && index + 1 < lines.length) command += `\n${lines[++index]}`;
    if (/^\s*curl\s/.test(command)) examples.push({ readme, line: start + 1, command: command.trim() });
  }
  return examples;
}

/** Whether a shell command stops inside a quoted string (a -d body may span lines without backslashes). */
function insideQuotes(command: string): boolean {
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < command.length; i++) {
    const char = command[i];
    if (quote === "'") {
      if (char === "'") quote = null;
    } else if (char === "\\") i++;
    else if (quote === '"') {
      if (char === '"') quote = null;
    } else if (char === "'" || char === '"') quote = char;
  }
  return quote !== null;
}

export function readmeExamples(repoRoot: string): CurlExample[] {
  return readmePaths(repoRoot).flatMap((path) => curlExamples(readFileSync(path, "utf8"), relative(repoRoot, path)));
}

/** Every host an example names in a URL (http://, https://), lower-cased, without port. */
export function hostsNamed(command: string): string[] {
  const hosts = [...command.matchAll(/\bhttps?:\/\/(\[[^\]]*\]|[^\s/:'"\\?#]+)/gi)].map((match) => match[1].toLowerCase());
  return [...new Set(hosts)];
}

export const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost"]);

/** The ports of this machine's services an example calls (http://127.0.0.1:<port> or http://localhost:<port>). */
export function localPorts(command: string): number[] {
  return [...new Set([...command.matchAll(/\bhttps?:\/\/(?:127\.0\.0\.1|localhost):(\d+)/gi)].map((match) => Number(match[1])))];
}

/** The command with each default port replaced by the port its service listens on in the test. */
export function withPorts(command: string, actualPort: ReadonlyMap<number, number>): string {
  return command.replace(/\b(https?:\/\/)(?:127\.0\.0\.1|localhost):(\d+)/gi, (whole, scheme: string, port: string) => {
    const actual = actualPort.get(Number(port));
    return actual === undefined ? whole : `${scheme}127.0.0.1:${actual}`;
  });
}

export const STATUS_MARKER = "@@readme-example-status=";

/** The command with curl told to print the HTTP status last on standard output (also when -o writes the body to a file). */
export function withStatusReport(command: string): string {
  return command.replace(/^curl\b/, `curl -w '\\n${STATUS_MARKER}%{http_code}\\n'`);
}

export function statusOf(stdout: string): number | null {
  const match = new RegExp(`${STATUS_MARKER}(\\d{3})\\s*$`).exec(stdout);
  return match ? Number(match[1]) : null;
}
