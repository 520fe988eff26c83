import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LOCAL_POSTGRES_SETTINGS, startLocalPostgres, type LocalPostgres } from "../src/index.js";
import { fixture, runScript, scratchDir } from "./helpers.js";

const scratch = scratchDir("local-postgres-");
let database: LocalPostgres;

async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  database = await startLocalPostgres({ dataRoot: scratch.dir, log: () => {} });
});

afterAll(async () => {
  await database?.stop();
  scratch.remove();
});

describe("the local database", () => {
  test("listens only on a Unix socket in a folder private to its user", async () => {
    const settings = await withClient(
      async (client) =>
        (await client.query("SELECT name, setting FROM pg_settings WHERE name IN ('listen_addresses', 'unix_socket_directories', 'unix_socket_permissions')"))
          .rows,
    );
    expect(Object.fromEntries(settings.map((row) => [row.name, row.setting]))).toEqual({
      listen_addresses: "",
      unix_socket_directories: database.socketDir,
      unix_socket_permissions: "0777",
    });
    expect(database.socketDir).toBe(path.join(scratch.dir, "postgres-socket"));
    expect(statSync(database.socketDir).mode & 0o777).toBe(0o700);
    expect(statSync(database.dataDir).mode & 0o777).toBe(0o700);
  });

  test("whole transactions from several processes at once never interleave: every transfer is kept and the total never moves", async () => {
    const accounts = 20;
    const initial = 10_000;
    await withClient(async (client) => {
      await client.query("CREATE TABLE accounts (id int PRIMARY KEY, balance bigint NOT NULL)");
      await client.query("CREATE TABLE ledger (worker text NOT NULL, from_id int NOT NULL, to_id int NOT NULL, amount int NOT NULL)");
      await client.query("INSERT INTO accounts SELECT g, $1 FROM generate_series(1, $2) g", [initial, accounts]);
    });
    const workers = 6;
    const transfers = 60;
    const runs = Array.from({ length: workers }, (_, i) => runScript(fixture("transfers.mjs"), [database.url, String(i), String(transfers), String(accounts)]));
    const codes = await Promise.all(runs.map((run) => run.exited));
    expect(codes, runs.map((run) => run.stderr()).join("\n")).toEqual(Array(workers).fill(0));
    expect(runs.map((run) => JSON.parse(run.lines[0]).committed)).toEqual(Array(workers).fill(transfers));

    await withClient(async (client) => {
      const { rows: total } = await client.query("SELECT sum(balance)::bigint AS total, count(*)::int AS n FROM accounts");
      expect(total[0]).toEqual({ total: String(initial * accounts), n: accounts });
      const { rows: ledger } = await client.query("SELECT count(*)::int AS n FROM ledger");
      expect(ledger[0].n).toBe(workers * transfers);
      // Each balance is exactly the start plus what the ledger says came in minus what went out: no lost update.
      const { rows: mismatched } = await client.query(
        `
        SELECT a.id FROM accounts a
         WHERE a.balance <> $1 + coalesce((SELECT sum(amount) FROM ledger WHERE to_id = a.id), 0)
                                - coalesce((SELECT sum(amount) FROM ledger WHERE from_id = a.id), 0)`,
        [initial],
      );
      expect(mismatched).toEqual([]);
    });
  }, 60_000);

  test("keeps its write-ahead log bounded: checkpoints recycle it while far more than max_wal_size is written", async () => {
    const maxWalBytes = Number.parseInt(LOCAL_POSTGRES_SETTINGS.max_wal_size, 10) * 1024 * 1024;
    const walBytes = async (client: pg.Client) =>
      Number((await client.query("SELECT coalesce(sum(size), 0)::bigint AS bytes FROM pg_ls_waldir()")).rows[0].bytes);
    await withClient(async (client) => {
      await client.query("CREATE TABLE filler (id int, body text)");
      // Stored as is: compressed filler would write little WAL.
      await client.query("ALTER TABLE filler ALTER COLUMN body SET STORAGE EXTERNAL");
      const { rows: start } = await client.query("SELECT pg_current_wal_lsn() AS lsn");
      let largest = await walBytes(client);
      // 1 KiB rows of hex digits, 40,000 per statement: about 48 MB of WAL each.
      for (let batch = 0; batch < 7; batch++) {
        await client.query("INSERT INTO filler SELECT g, repeat(md5(g::text || $1), 32) FROM generate_series(1, 40000) g", [String(batch)]);
        largest = Math.max(largest, await walBytes(client));
      }
      const { rows: written } = await client.query("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::bigint AS bytes", [start[0].lsn]);
      expect(Number(written[0].bytes)).toBeGreaterThan(3 * maxWalBytes);
      // max_wal_size is a soft bound (a checkpoint is asked for there and takes a while): allow a checkpoint's worth more.
      expect(largest).toBeLessThan(2 * maxWalBytes);
    });
  }, 120_000);

  test("after SIGKILL in the middle of writes it starts again with every acknowledged write, over the stale postmaster.pid", async () => {
    await withClient((client) => client.query("CREATE TABLE acknowledged (id text PRIMARY KEY, body text NOT NULL)"));
    const writers = Array.from({ length: 4 }, (_, i) => runScript(fixture("writer.mjs"), [database.url, `w${i}`]));
    const enough = Date.now() + 30_000;
    while (writers.reduce((sum, writer) => sum + writer.lines.length, 0) < 150 && Date.now() < enough) await new Promise((resolve) => setTimeout(resolve, 20));
    // The server and its writers at once, as when the whole start is killed.
    process.kill(database.pid, "SIGKILL");
    for (const writer of writers) writer.child.kill("SIGKILL");
    await Promise.all(writers.map((writer) => writer.exited));
    const acknowledged = writers.flatMap((writer) => writer.lines.filter((line) => line.length > 0));
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);
    expect(readFileSync(path.join(database.dataDir, "postmaster.pid"), "utf8")).toMatch(new RegExp(`^${database.pid}\\n`));

    await database.stop();
    database = await startLocalPostgres({ dataRoot: scratch.dir, log: () => {} });
    const stored = await withClient(async (client) => new Set((await client.query("SELECT id FROM acknowledged")).rows.map((row) => row.id as string)));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    // Nothing but what the writers sent: at most each writer's one commit in flight at the kill was kept unannounced.
    expect(stored.size - acknowledged.length).toBeGreaterThanOrEqual(0);
    expect(stored.size - acknowledged.length).toBeLessThanOrEqual(writers.length);
  }, 120_000);
});
