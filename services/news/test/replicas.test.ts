/**
 * Three replicas of news behind a real nginx, on one catalogue in PostgreSQL, with a live feed served on loopback:
 * the first load runs on one replica, each live round on one (and on another within seconds when its replica is
 * killed mid-round), and a run made anywhere (here the `ingest` command) reaches every replica's answers within the
 * version poll's second.
 */
import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LIVE_CHECK_MS } from "@apiplat/catalogue";
import { scopeToSchema, type Database } from "@apiplat/storage";
import { startReplicas, type ReplicaSet, type TestSubscriber } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetsDir } from "./helpers.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const DATASET_SOURCES = ["abc-au", "huffpost", "times-of-india", "uci-news-aggregator"];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const report = (scenario: string, figures: object) => {
  if (process.env.REPORT_COUNTS === "1") console.log(JSON.stringify({ scenario, ...figures }));
};

/** An RSS feed on loopback that counts its fetches and, while `holding`, keeps them waiting (a round in progress). */
class LoopbackFeed {
  fetches: number[] = [];
  holding = false;
  items = "";
  private held: ServerResponse[] = [];
  private server: Server = createServer((request, response) => this.answer(request, response));

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/wire.xml`;
  }

  private answer(_request: IncomingMessage, response: ServerResponse) {
    this.fetches.push(Date.now());
    if (this.holding) this.held.push(response);
    else this.send(response);
  }

  private send(response: ServerResponse) {
    response.writeHead(200, { "content-type": "application/rss+xml" });
    response.end(
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Loopback Wire</title><link>http://127.0.0.1/</link><description>d</description>${this.items}</channel></rss>`,
    );
  }

  hold() {
    this.holding = true;
  }

  release() {
    this.holding = false;
    for (const response of this.held.splice(0)) if (!response.destroyed) this.send(response);
  }

  close() {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(resolve));
  }
}

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await pause(everyMs);
  }
}

let set: ReplicaSet;
let db: Database;
let subscriber: TestSubscriber;
const feed = new LoopbackFeed();
let feedsEnv: Record<string, string>;

beforeAll(async () => {
  const url = await feed.listen();
  feedsEnv = {
    NEWS_FEEDS: JSON.stringify([{ url, name: "Loopback Wire", country: "nz", language: "en", category: "business" }]),
    NEWS_FEED_INTERVAL_MINUTES: "1",
    OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8",
    DATASETS_DIR: datasetsDir,
  };
  // The replicas start on an empty catalogue with the first load on (NEWS_AUTOLOAD defaults to on).
  set = await startReplicas("news", { replicas: 3, env: feedsEnv, startTimeoutMs: 120_000 });
  db = await scopeToSchema(set.platform.deps.db, "news");
  subscriber = await set.platform.subscribe("news", "PRO");
}, 180_000);
afterAll(async () => {
  feed.release();
  await set?.close();
  await feed.close();
});

const runsOf = (source: string) =>
  db
    .query<{ status: string; runner: string; error: string | null }>("SELECT status, runner, error FROM ingest_runs WHERE source = $1 ORDER BY id", [source])
    .then((r) => r.rows);
const replicaOf = (runner: string) => set.replicas.findIndex((replica) => runner.endsWith(`/${replica.pid}`));

describe("news on three replicas", () => {
  it("loads the empty catalogue once, on one replica, the others not ready until it has", async () => {
    const notReady = new Set<number>();
    await until(
      "every replica ready",
      async () => {
        const answers = await Promise.all(set.replicas.map((replica) => set.request({ path: "/ready", replica: replica.index })));
        answers.forEach((answer, index) => answer.status === 503 && notReady.add(index));
        return answers.every((answer) => answer.status === 200) || undefined;
      },
      300_000,
      250,
    );
    const runs = await db.query<{ source: string; status: string; runner: string; error: string | null }>(
      "SELECT source, status, runner, error FROM ingest_runs WHERE source <> 'rss-feeds' ORDER BY source",
    );
    if (runs.rows.some((run) => run.status !== "succeeded"))
      console.error(
        runs.rows,
        set.replicas.map((r) => r.log().slice(-2000)),
      );
    expect(runs.rows.map((run) => [run.source, run.status])).toEqual(DATASET_SOURCES.map((source) => [source, "succeeded"]));
    const loaders = new Set(runs.rows.map((run) => replicaOf(run.runner)));
    expect(loaders.size).toBe(1);
    expect([...loaders][0]).toBeGreaterThanOrEqual(0);
    report("first load", { replicas: 3, runs_per_source: 1, loaded_by: [...loaders][0], not_ready_meanwhile: [...notReady] });
  }, 320_000);

  it("runs a live round on one replica, and again on another within seconds when that one is killed mid-round", async () => {
    // The first round ran after the first load; the next is due a minute after it. Rather than wait that minute, the
    // rounds so far are made two minutes older: the next check of any replica (within LIVE_CHECK_MS) finds one due,
    // and it is held here mid-fetch.
    const rounds = await until(
      "the first live round",
      async () => ((await runsOf("rss-feeds")).some((run) => run.status !== "running") ? feed.fetches.length : undefined),
      60_000,
    );
    feed.hold();
    await db.query("UPDATE ingest_runs SET started_at = started_at - interval '2 minutes' WHERE source = 'rss-feeds'");
    await until("the next live round's fetch", () => feed.fetches.length > rounds || undefined, 30_000, 20);
    // Every replica checks every LIVE_CHECK_MS: past one period, still one fetch (the feed's timeout is 10 s).
    await pause(LIVE_CHECK_MS + 500);
    expect(feed.fetches).toHaveLength(rounds + 1);
    const running = (await runsOf("rss-feeds")).at(-1)!;
    expect(running.status).toBe("running");
    const holder = replicaOf(running.runner);
    expect(holder).toBeGreaterThanOrEqual(0);

    const killedAt = Date.now();
    await set.stop(holder, "SIGKILL");
    feed.release();
    await until("another replica's fetch", () => feed.fetches.length > rounds + 1 || undefined, 30_000, 20);
    const takeoverMs = feed.fetches[rounds + 1] - killedAt;
    expect(takeoverMs).toBeLessThanOrEqual(LIVE_CHECK_MS + 1_500);

    const runs = await until(
      "the second round's end",
      async () => {
        const rows = (await runsOf("rss-feeds")).slice(rounds);
        return rows.length === 2 && rows[1].status === "succeeded" ? rows : undefined;
      },
      30_000,
    );
    expect(runs[0]).toMatchObject({ status: "failed", error: `abandoned: ${running.runner} stopped before the run finished` });
    expect(replicaOf(runs[1].runner)).not.toBe(holder);
    // The round is made: no replica fetches again before the interval (a minute) has passed.
    await pause(LIVE_CHECK_MS + 1_000);
    expect(feed.fetches).toHaveLength(rounds + 2);
    report("live round", {
      replicas: 3,
      rounds_before: rounds,
      fetches_of_the_round: 1,
      fetches_after_takeover: 2,
      takeover_ms: takeoverMs,
      check_period_ms: LIVE_CHECK_MS,
    });

    // Started again within the interval, the killed replica makes no round of its own: the last is less than a minute old.
    await set.start(holder);
    await pause(LIVE_CHECK_MS + 500);
    if (Date.now() - feed.fetches[rounds + 1] < 60_000) expect(feed.fetches).toHaveLength(rounds + 2);
  }, 240_000);

  it("shows an article ingested elsewhere on every replica within the version poll's second, kept answers included", async () => {
    const alive = set.replicas.filter((replica) => replica.running);
    const search = (replica: number) => set.request({ path: "/search?q=zqx", headers: subscriber.headers, replica });
    for (const replica of alive) {
      for (let i = 0; i < 3; i++) expect((await search(replica.index)).json().data.articles).toEqual([]);
      expect((await search(replica.index)).headers["cache-status"]).toBe("apiplat-catalogue; hit");
    }

    feed.items = `<item><title>The zqx harvest</title><link>http://127.0.0.1/zqx</link><pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate><description>A first.</description></item>`;
    const exitCode = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ["--import", "tsx", "scripts/ingest.ts", "news", "--source", "rss-feeds"], {
        cwd: REPO,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...set.platform.processEnv, ...feedsEnv },
        stdio: "ignore",
      });
      child.once("exit", resolve);
    });
    const ingestedAt = Date.now();
    expect(exitCode).toBe(0);

    // Each replica asked again and again at once; the send time of its first answer with the article.
    const freshAfter = await Promise.all(
      alive.map(async (replica) => {
        const sentAt = await until(
          `replica ${replica.index} to find the article`,
          async () => {
            const sent = Date.now();
            const answer = await search(replica.index);
            return answer.json().data.articles.length === 1 ? sent : undefined;
          },
          30_000,
          0,
        );
        return Math.max(0, sentAt - ingestedAt);
      }),
    );
    for (const ms of freshAfter) expect(ms).toBeLessThanOrEqual(1_000);
    report("ingested elsewhere", { replicas: alive.length, fresh_after_ms: freshAfter, bound_ms: 1_000 });
  }, 180_000);
});
