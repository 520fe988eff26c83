import { randomBytes } from "node:crypto";
import type { Queryable } from "@apiplat/storage";

/**
 * The visitor-fingerprint salt of a UTC day, created on first use and shared by every process through the
 * database. Salts older than the previous day are deleted, so a fingerprint can never be recomputed later.
 */
export async function saltForDay(db: Queryable, day: string): Promise<Buffer> {
  await db.query("INSERT INTO shortener_visitor_salts (day, salt) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING", [day, randomBytes(32)]);
  await db.query("DELETE FROM shortener_visitor_salts WHERE day < $1::date - 1", [day]);
  const result = await db.query<{ salt: Uint8Array }>("SELECT salt FROM shortener_visitor_salts WHERE day = $1", [day]);
  return Buffer.from(result.rows[0].salt);
}
