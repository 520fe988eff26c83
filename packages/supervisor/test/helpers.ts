import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const fixture = (name: string) => path.join(import.meta.dirname, "fixtures", name);

/** A folder under /tmp (every user may pass through it, as the database's own user must when tests run as root). */
export function scratchDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RunningScript {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `node <script> ...args`, its stdout collected line by line. */
export function runScript(script: string, args: string[]): RunningScript {
  const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  let partial = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    const parts = (partial + chunk).split("\n");
    partial = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, lines, stderr: () => stderr, exited };
}
