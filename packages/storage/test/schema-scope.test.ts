import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, scopeToSchema, type Database } from "../src/index.js";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A platform database in a schema of its own (as a test file's), and a service's view of it. */
async function platformAndService(): Promise<{ platform: Database; service: Database; base: string }> {
  const base = `scope_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const admin = createPostgresDatabase(TEST_DATABASE_URL);
  await admin.exec(`CREATE SCHEMA ${base}`);
  await admin.close();
  const platform = createPostgresDatabase(TEST_DATABASE_URL, { schema: base, maxConnections: 3 });
  return { platform, service: await scopeToSchema(platform, "news"), base };
}

describe("a service's view of the database", () => {
  let platform: Database;
  let service: Database;
  let base: string;
  beforeAll(async () => {
    ({ platform, service, base } = await platformAndService());
    await platform.exec("CREATE TABLE accounts (id int PRIMARY KEY)");
    await platform.query("INSERT INTO accounts VALUES (1), (2)");
  });
  afterAll(async () => {
    await platform.exec(`DROP SCHEMA ${base} CASCADE; DROP SCHEMA ${base}_news CASCADE`);
    await platform.close();
  });

  it("creates its tables in the service's schema and still reads the platform's", async () => {
    const own = `${base}_news`;
    expect(service.schema).toBe(own);
    await service.exec("CREATE TABLE articles (id int PRIMARY KEY)");
    await service.query("INSERT INTO articles VALUES (7)");
    // Other test files make tables named articles in schemas of their own: ask about these two schemas only.
    const where = await platform.query<{ mine: boolean; platforms: boolean }>(
      `SELECT to_regclass('"${own}".articles') IS NOT NULL AS mine, to_regclass('"${base}".articles') IS NOT NULL AS platforms`,
    );
    expect(where.rows).toEqual([{ mine: true, platforms: false }]);
    expect((await service.query<{ n: number }>("SELECT count(*)::int AS n FROM accounts")).rows).toEqual([{ n: 2 }]);
    expect((await service.query<{ search_path: string }>("SHOW search_path")).rows[0].search_path.replace(/[" ]/g, "")).toBe(`${own},${base}`);
  });

  it("leaves the platform's own path alone, transactions included", async () => {
    await service.transaction(async (tx) => {
      await tx.query("INSERT INTO articles VALUES (8)");
    });
    const platformPath = (await platform.query<{ search_path: string }>("SHOW search_path")).rows[0].search_path;
    expect(platformPath).not.toContain("news");
    await expect(platform.query("SELECT * FROM articles")).rejects.toThrow(/articles/);
    expect((await service.query<{ id: number }>("SELECT id FROM articles ORDER BY id")).rows).toEqual([{ id: 7 }, { id: 8 }]);
  });

  it("keeps each view's path when their statements interleave, after failures and rollbacks", async () => {
    const own = `${base}_news`;
    await expect(
      service.transaction(async (tx) => {
        await tx.query("INSERT INTO articles VALUES (9)");
        throw new Error("abandoned");
      }),
    ).rejects.toThrow("abandoned");
    await expect(service.query("SELECT * FROM no_such_table")).rejects.toThrow(/no_such_table/);
    const asked = Array.from({ length: 60 }, (_, i) =>
      i % 3 === 0
        ? platform.query<{ n: number }>("SELECT count(*)::int AS n FROM accounts").then(({ rows }) => ["platform", rows[0].n])
        : service
            .query<{ n: number; schema: string }>("SELECT count(*)::int AS n, current_schema() AS schema FROM articles")
            .then(({ rows }) => [rows[0].schema, rows[0].n]),
    );
    const answers = await Promise.all(asked);
    expect(answers).toEqual(Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? ["platform", 2] : [own, 2])));
    await expect(platform.query("SELECT * FROM articles")).rejects.toThrow(/articles/);
  });
});

describe("replicas starting at once on a new database", () => {
  it("all get the service's schema, though PostgreSQL's CREATE SCHEMA IF NOT EXISTS races with itself", async () => {
    const base = `scope_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
    const admin = createPostgresDatabase(TEST_DATABASE_URL);
    await admin.exec(`CREATE SCHEMA ${base}`);
    const replicas = Array.from({ length: 8 }, () => createPostgresDatabase(TEST_DATABASE_URL, { schema: base, maxConnections: 1 }));
    try {
      for (let round = 0; round < 5; round++) {
        const scoped = await Promise.all(replicas.map((replica) => scopeToSchema(replica, `svc${round}`)));
        expect(new Set(scoped.map((db) => db.schema))).toEqual(new Set([`${base}_svc${round}`]));
      }
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
      await admin.exec(`DROP SCHEMA ${base} CASCADE; ${[0, 1, 2, 3, 4].map((round) => `DROP SCHEMA ${base}_svc${round} CASCADE;`).join(" ")}`);
      await admin.close();
    }
  });
});
