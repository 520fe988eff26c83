import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../src/index.js";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

// The collector, asked for directly: whether a result is still held is what is tested.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const db = createPostgresDatabase(TEST_DATABASE_URL, { maxConnections: 2 });
afterAll(() => db.close());

describe("a PostgreSQL Database", () => {
  it("keeps no statement's rows once the caller lets them go, not even those of the statement that opened a connection", async () => {
    // A fresh pool: this statement opens its connection.
    let rows: unknown[] | null = (await db.query("SELECT generate_series(1, 1000) AS n")).rows;
    expect(rows).toHaveLength(1000);
    const held = new WeakRef(rows);
    rows = null;
    // A WeakRef's target lives to the end of the job that made it.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(held.deref()).toBeUndefined();
    // The connection is still the pool's, and answers.
    expect((await db.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("gives back a connection whose statement failed, and the next statement runs", async () => {
    await expect(db.query("SELECT * FROM no_such_table_here")).rejects.toThrow(/no_such_table_here/);
    await expect(db.query("SELECT 1/0")).rejects.toThrow(/division by zero/);
    const answers = await Promise.all([1, 2, 3, 4].map((n) => db.query<{ n: number }>("SELECT $1::int AS n", [n])));
    expect(answers.map((answer) => answer.rows[0].n)).toEqual([1, 2, 3, 4]);
  });
});
