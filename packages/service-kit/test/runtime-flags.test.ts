import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const fixture = new URL("./fixtures/pretenuring.ts", import.meta.url).pathname;

/** Full collections caused by objects that die young at a place whose earlier objects outlived young collections. */
async function fullCollections(mode: "plain" | "service"): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", fixture, mode], { timeout: 60_000 });
  return (JSON.parse(stdout) as { fullCollections: number }).fullCollections;
}

describe("a service process's V8 flags", () => {
  it("keep short-lived objects young where V8 would have made them in the old generation", async () => {
    const [plain, service] = await Promise.all([fullCollections("plain"), fullCollections("service")]);
    // The fixture shows pretenuring at all: without the flags, its dying objects fill the old generation.
    expect(plain).toBeGreaterThanOrEqual(1);
    expect(service).toBe(0);
  });
});
