import { setImmediate as nextTurn } from "node:timers/promises";
import type { Queryable } from "@apiplat/storage";
import { toBuffer } from "./sql.js";

/**
 * Bodies too large for the capture's row are kept in parts of this size, one INSERT each. The bytes
 * travel as hex text that Buffer encodes and decodes natively: a driver's own bytea encoding of a
 * 10 MiB value would hold the event loop for seconds.
 */
const BODY_PART_BYTES = 256 * 1024;

/**
 * Writes `body` in parts; call inside the transaction that stores the capture row. Between parts the
 * event loop gets a turn, so that timers and other sockets are served between the parts' encodings.
 */
export async function insertBodyParts(tx: Queryable, requestId: string, body: Buffer): Promise<void> {
  for (let part = 0, offset = 0; offset < body.length; part++, offset += BODY_PART_BYTES) {
    if (part > 0) await nextTurn();
    const hex = body.subarray(offset, offset + BODY_PART_BYTES).toString("hex");
    await tx.query("INSERT INTO webhook_request_bodies (request_id, part, bytes) VALUES ($1, $2, decode($3, 'hex'))", [requestId, part, hex]);
  }
}

/** The parts of a body in order, one query each, so that a reader holds one part at a time. */
export async function* bodyParts(db: Queryable, requestId: string): AsyncGenerator<Buffer> {
  for (let part = 0; ; part++) {
    if (part > 0) await nextTurn();
    const { rows } = await db.query<{ hex: string }>("SELECT encode(bytes, 'hex') AS hex FROM webhook_request_bodies WHERE request_id = $1 AND part = $2", [
      requestId,
      part,
    ]);
    if (rows.length === 0) return;
    yield Buffer.from(rows[0].hex, "hex");
  }
}

/** A capture's body: the one kept in its row, else its parts. */
export async function capturedBody(db: Queryable, requestId: string, inRow: Uint8Array | null): Promise<Buffer> {
  return inRow === null ? readBodyParts(db, requestId) : toBuffer(inRow);
}

export async function readBodyParts(db: Queryable, requestId: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of bodyParts(db, requestId)) parts.push(part);
  return Buffer.concat(parts);
}
