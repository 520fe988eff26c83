import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { readFile, readlink } from "node:fs/promises";
import { startForwardProxy } from "@apiplat/outbound-guard";
import { networkNamespaceWorks, startBrowserProxy } from "../src/browser/browser-network.js";
import { BrowserPool } from "../src/browser/browser-pool.js";
import { RenderError } from "../src/domain/errors.js";
import { DEFAULT_SETTINGS } from "../src/settings.js";
import { html, pdfBytes, TEST_SETTINGS, type TestService, whenBrowsersWarm } from "./helpers.js";
import { call, Readiness, startService } from "@apiplat/testing";
import pdfService from "../src/service.js";
import { pageTexts } from "./pdf-tools.js";

/** These pools render only local documents; their browsers still get the service's way out, the guarded proxy. */
const proxy = await startForwardProxy();
afterAll(() => proxy.close());

function pool(overrides: Partial<ConstructorParameters<typeof BrowserPool>[0]> = {}) {
  return new BrowserPool({ ...DEFAULT_SETTINGS, browsers: 1, pagesPerBrowser: 1, proxyServer: proxy.url, ...overrides });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function failure(promise: Promise<unknown>): Promise<RenderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RenderError) return error;
    throw error;
  }
  throw new Error("expected the job to fail");
}

/** A job whose browser process is killed under it; resolves to the error the job failed with. */
function browserKilledDuringJob(browsers: BrowserPool): Promise<RenderError> {
  return failure(
    browsers.run(async (page) => {
      page.browser().process()!.kill("SIGKILL");
      await sleep(500);
      return page.evaluate(() => 1);
    }, 10_000),
  );
}

describe("a browser's pipes", () => {
  test("a failed read on any of them, as when Chromium is killed mid-write, is not an uncaught exception", async () => {
    const browsers = pool();
    try {
      const pipes = await browsers.run(async (page) => page.browser().process()!.stdio, 30_000);
      expect(pipes).toHaveLength(5);
      for (const pipe of pipes) {
        expect(() => pipe!.emit("error", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }))).not.toThrow();
      }
    } finally {
      await browsers.close();
    }
  });
});

describe("the service under bad jobs", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await whenBrowsersWarm(await startService(pdfService, { settings: TEST_SETTINGS }));
  });
  afterAll(async () => {
    await service?.close();
  });

  test("/ready reports the browser", async () => {
    const res = await call(service, Readiness, { url: "/ready" });
    expect(res.status).toBe(200);
    expect(res.data.checks.browser).toBe("ok");
  });

  test("a document that never finishes loading is cut at timeout_ms, and the next job renders", async () => {
    const headers = await service.headers("MEGA");
    const started = Date.now();
    const stuck = await service.ask("/from-html", { html: html("<script>while (true) {}</script>"), javascript: true, timeout_ms: 2000 });
    expect(stuck.status).toBe(422);
    expect(stuck.error.code).toBe("UNPROCESSABLE");
    expect(stuck.error.message).toContain("did not finish within 2000 ms");
    expect(Date.now() - started).toBeLessThan(12_000);
    const next = await service.app.inject({ method: "POST", url: "/from-html", headers, payload: { html: html("<p>Still serving</p>") } });
    expect(next.statusCode).toBe(200);
    expect(pageTexts(pdfBytes(next))[0]).toContain("Still serving");
  });

  test("two renders run side by side", async () => {
    const headers = await service.headers("MEGA");
    const [a, b] = await Promise.all(
      ["Left job", "Right job"].map((text) => service.app.inject({ method: "POST", url: "/from-html", headers, payload: { html: html(`<p>${text}</p>`) } })),
    );
    expect(pageTexts(pdfBytes(a))[0]).toContain("Left job");
    expect(pageTexts(pdfBytes(b))[0]).toContain("Right job");
  });
});

describe("BrowserPool", () => {
  // One page, a queue of one and a 1.5 s queue timeout, shared by the tests that leave the pool healthy.
  let shared: BrowserPool | undefined;
  const sharedPool = async () => {
    if (!shared) {
      shared = pool({ maxQueue: 1, queueTimeoutMs: 1500 });
      await shared.start();
    }
    return shared;
  };
  afterAll(async () => {
    await shared?.close();
  });

  test("a crashed browser is replaced and the next job succeeds", async () => {
    const browsers = pool();
    try {
      const error = await browserKilledDuringJob(browsers);
      expect(error.kind).toBe("browser_unavailable");
      expect(await browsers.run((page) => page.evaluate(() => 6 * 7), 10_000)).toBe(42);
      expect(browsers.stats().browsers_restarted).toBe(1);
    } finally {
      await browsers.close();
    }
  });

  test("a hung browser is killed and replaced after the job's timeout", async () => {
    const browsers = pool();
    try {
      const error = await failure(
        browsers.run(async (page) => {
          process.kill(page.browser().process()!.pid!, "SIGSTOP");
          return page.evaluate(() => 1);
        }, 1_000),
      );
      expect(error.kind).toBe("timeout");
      expect(await browsers.run((page) => page.evaluate(() => "alive"), 10_000)).toBe("alive");
      expect(browsers.stats().browsers_restarted).toBe(1);
    } finally {
      await browsers.close();
    }
  });

  test("a browser retired after recycleAfterJobs is replaced without failing the jobs right after it", async () => {
    const browsers = pool({ recycleAfterJobs: 2 });
    try {
      await browsers.start();
      const results: string[] = [];
      for (let job = 1; job <= 5; job++) {
        // No pause between jobs: the next one arrives while the retired browser is still closing.
        results.push(
          await browsers.run(
            async (page) => {
              await page.setContent(`<p>job ${job}</p>`);
              return page.evaluate(() => document.body.innerText);
            },
            10_000,
            { reusePage: job % 2 === 0 },
          ),
        );
      }
      expect(results).toEqual(["job 1", "job 2", "job 3", "job 4", "job 5"]);
      expect(browsers.stats().browsers_restarted).toBe(2);
    } finally {
      await browsers.close();
    }
  });

  test("while a retired browser is replaced, jobs go to the one still running; the replacement starts unasked", async () => {
    const browsers = pool({ browsers: 2, recycleAfterJobs: 2 });
    try {
      await browsers.start();
      const browserPid = () => browsers.run(async (page) => page.browser().process()!.pid!, 10_000, { reusePage: true });
      const [first, second] = await Promise.all([browserPid(), browserPid()]);
      expect(first).not.toBe(second);
      expect(await browserPid()).toBe(first); // that browser's second job: it is retired after it
      expect(await browserPid()).toBe(second); // not a launch: the other browser was running
      // Both have now served two jobs; each is replaced without a job asking for it.
      await vi.waitFor(() => expect(browsers.stats()).toMatchObject({ browsers_running: 2, browsers_restarted: 2 }), { timeout: 15_000, interval: 100 });
    } finally {
      await browsers.close();
    }
  });

  test("a crashed browser is replaced before the next job asks", async () => {
    const browsers = pool();
    try {
      await browsers.start();
      await browserKilledDuringJob(browsers);
      await vi.waitFor(() => expect(browsers.stats()).toMatchObject({ browsers_running: 1, browsers_restarted: 1 }), { timeout: 15_000, interval: 100 });
    } finally {
      await browsers.close();
    }
  });

  test("a crashed tab fails only its own job", async () => {
    const browsers = pool();
    try {
      const error = await failure(
        browsers.run(async (page) => {
          const cdp = await page.createCDPSession();
          void cdp.send("Page.crash").catch(() => undefined);
          await sleep(1000);
          return page.evaluate(() => 1);
        }, 10_000),
      );
      expect(error.kind).toBe("renderer_crashed");
      expect(await browsers.run((page) => page.evaluate(() => "fine"), 10_000)).toBe("fine");
      expect(browsers.stats().browsers_restarted).toBe(0);
    } finally {
      await browsers.close();
    }
  });

  test("jobs beyond the free pages wait in a bounded queue; past it they are refused at once", async () => {
    const browsers = await sharedPool();
    {
      // The first job holds the only page until the third has been refused: a fixed sleep could outlast the queued
      // job's 1,500 ms wait when the machine is slow to open pages.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const holding = browsers.run(async () => {
        started();
        await released;
        return "first";
      }, 10_000);
      await running;
      const queued = browsers.run(async () => "second", 10_000);
      const refused = await failure(browsers.run(async () => "third", 10_000));
      expect(refused.kind).toBe("busy");
      expect(refused.message).toContain("1 jobs are already waiting");
      release();
      expect(await holding).toBe("first");
      expect(await queued).toBe("second");
    }
  });

  test("a job that waits longer than the queue timeout is refused", async () => {
    const browsers = await sharedPool();
    const holding = browsers.run(async () => {
      await sleep(2500);
      return "done";
    }, 10_000);
    await sleep(50);
    const refused = await failure(browsers.run(async () => "late", 10_000));
    expect(refused.kind).toBe("busy");
    expect(refused.message).toContain("within 1500 ms");
    expect(await holding).toBe("done");
  });

  test("script-free jobs share an idle page, blanked between jobs; a failed job's page is not reused", async () => {
    const browsers = await sharedPool();
    {
      const first = await browsers.run(
        async (page) => {
          await page.setContent("<p>first document</p>");
          return page;
        },
        10_000,
        { reusePage: true },
      );
      const second = await browsers.run(async (page) => ({ page, text: await page.evaluate(() => document.body?.innerText ?? "") }), 10_000, {
        reusePage: true,
      });
      expect(second.page).toBe(first);
      expect(second.text).toBe("");
      await failure(
        browsers.run(
          async () => {
            throw new RenderError("invalid_option", "bad");
          },
          10_000,
          { reusePage: true },
        ),
      );
      const fourth = await browsers.run(async (page) => page, 10_000, { reusePage: true });
      expect(fourth).not.toBe(first);
      expect(first.isClosed()).toBe(true);
    }
  });

  test("each job gets a fresh browser context: nothing stored by one is seen by the next", async () => {
    const browsers = await sharedPool();
    {
      const url = "https://example.test/";
      const stored = await browsers.run(async (page) => {
        await page.setCookie({ name: "leak", value: "1", url });
        return (await page.cookies(url)).length;
      }, 10_000);
      expect(stored).toBe(1);
      const seen = await browsers.run(async (page) => (await page.cookies(url)).length, 10_000);
      expect(seen).toBe(0);
    }
  });
});

const namespacesWork = await networkNamespaceWorks();

describe("network namespace", () => {
  test.runIf(namespacesWork)("where the machine allows it, each browser runs in a network namespace with only its loopback", async () => {
    const isolated = await startBrowserProxy({ allowCidrs: [], namespace: "auto", onRefused: () => undefined });
    expect(isolated.isolated).toBe(true);
    const browsers = pool({ proxyServer: isolated.proxy.url, proxySocketPath: isolated.proxy.socketPath });
    try {
      const pid = await browsers.run(async (page) => page.browser().process()!.pid!, 10_000);
      expect(await readlink(`/proc/${pid}/ns/net`)).not.toBe(await readlink("/proc/self/ns/net"));
      const interfaces = (await readFile(`/proc/${pid}/net/dev`, "utf8"))
        .split("\n")
        .slice(2)
        .map((line) => line.split(":")[0].trim())
        .filter(Boolean);
      expect(interfaces).toEqual(["lo"]);
      // And it still renders through the relay to the proxy.
      expect(await browsers.run((page) => page.evaluate(() => 6 * 7), 10_000)).toBe(42);
    } finally {
      await browsers.close();
      await isolated.close();
    }
  });
});
