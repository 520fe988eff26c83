import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { defaultSharedDir } from "../src/index.js";

/** A folder holding `parts` (created) and a checkout whose .git/config names `origin`. */
function layout(parts: string[], origin?: string): { root: string; checkout: string } {
  const root = mkdtempSync(path.join(tmpdir(), "shared-dir-"));
  for (const part of parts) mkdirSync(path.join(root, part), { recursive: true });
  const checkout = path.join(root, "clone", "main");
  mkdirSync(path.join(checkout, ".git"), { recursive: true });
  const remote = origin ? `[remote "origin"]\n\turl = ${origin}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n` : "";
  writeFileSync(path.join(checkout, ".git", "config"), `[core]\n\tbare = false\n${remote}[branch "main"]\n\tremote = origin\n`);
  return { root, checkout };
}

describe("the shared/ folder of datasets and models", () => {
  it("is the one beside the checkout when there is one", () => {
    const { root, checkout } = layout(["clone/shared", "work/shared", "work/main"], "/nowhere");
    expect(defaultSharedDir(checkout)).toBe(path.join(root, "clone", "shared"));
  });

  it("is the one beside the local repository a clone came from, by path or file:// URL", () => {
    const byPath = layout(["work/shared", "work/main"]);
    const cloned = layout(["work/shared", "work/main"], path.join(byPath.root, "work", "main"));
    expect(defaultSharedDir(cloned.checkout)).toBe(path.join(byPath.root, "work", "shared"));
    const byUrl = layout(["work/shared", "work/main"]);
    byUrl.checkout = layout([], pathToFileURL(path.join(byUrl.root, "work", "main")).href).checkout;
    expect(defaultSharedDir(byUrl.checkout)).toBe(path.join(byUrl.root, "work", "shared"));
  });

  it("falls back to shared/ inside the checkout when neither exists or the origin is remote", () => {
    const { checkout } = layout([], "https://example.com/api-platform.git");
    expect(defaultSharedDir(checkout)).toBe(path.join(checkout, "shared"));
  });
});
