import { describe, expect, it } from "vitest";
import type { Database } from "@apiplat/storage";
import { UsageRecorder, type UsageKey } from "../src/index.js";

/** A database that records each usage statement's counts, and fails while `down` is set. */
function fakeDatabase() {
  const writes: number[][] = [];
  const state = { down: false, delayMs: 0 };
  const db = {
    async query(_sql: string, params: unknown[]) {
      await new Promise((resolve) => setTimeout(resolve, state.delayMs));
      if (state.down) throw new Error("connect ECONNREFUSED");
      writes.push(params[5] as number[]);
      return { rows: [], rowCount: 0 };
    },
  } as unknown as Database;
  return { db, writes, state };
}

const key = (endpoint: string): UsageKey => ({ month: "2026-11", accountId: "a", keyId: "k", service: "text-toolkit", endpoint });
const written = (recorder: UsageRecorder, usage: UsageKey) => new Promise<void>((resolve) => expect(recorder.record(usage, resolve)).toBe(true));

describe("UsageRecorder, writing before the answer", () => {
  it("lets an answer go once its request is written, the requests of a moment in one statement", async () => {
    const { db, writes } = fakeDatabase();
    const recorder = new UsageRecorder(db, { writeBehindMs: 0, commitTimeoutMs: 2_000, onError: () => {} });
    await Promise.all([written(recorder, key("GET /a")), written(recorder, key("GET /a")), written(recorder, key("GET /b"))]);
    expect(writes).toEqual([[2, 1]]);
    await written(recorder, key("GET /a"));
    expect(writes).toEqual([[2, 1], [1]]);
  });

  it("does not hold answers longer than the commit timeout; the count is written when the database answers", async () => {
    const { db, writes, state } = fakeDatabase();
    state.delayMs = 300;
    const recorder = new UsageRecorder(db, { writeBehindMs: 0, commitTimeoutMs: 50, onError: () => {} });
    const started = Date.now();
    await written(recorder, key("GET /a"));
    expect(Date.now() - started).toBeLessThan(250);
    await recorder.flush();
    expect(writes).toEqual([[1]]);
  });

  it("keeps counts through a failing database, answers without waiting for it meanwhile, and writes them once it is back", async () => {
    const { db, writes, state } = fakeDatabase();
    const errors: unknown[] = [];
    const recorder = new UsageRecorder(db, { writeBehindMs: 0, commitTimeoutMs: 2_000, onError: (error) => errors.push(error) });
    state.down = true;
    await written(recorder, key("GET /a"));
    expect(errors).toHaveLength(1);
    expect(recorder.record(key("GET /a"), () => {})).toBe(false);
    expect(recorder.unflushed("2026-11", "a", "text-toolkit")).toBe(2);
    state.down = false;
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(writes).toEqual([[2]]);
    expect(recorder.unflushed("2026-11", "a", "text-toolkit")).toBe(0);
  });
});

describe("UsageRecorder, writing behind", () => {
  it("answers at once and writes every interval, and on close", async () => {
    const { db, writes } = fakeDatabase();
    const recorder = new UsageRecorder(db, { writeBehindMs: 60_000, commitTimeoutMs: 2_000, onError: () => {} });
    recorder.start();
    expect(recorder.record(key("GET /a"), () => {})).toBe(false);
    expect(recorder.record(key("GET /a"))).toBe(false);
    expect(writes).toEqual([]);
    await recorder.close();
    expect(writes).toEqual([[2]]);
  });
});
