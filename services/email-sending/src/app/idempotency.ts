import { createHash } from "node:crypto";
import { errors } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import { completeKey, releaseKey, reserveKey } from "../store/idempotency.js";

export type Answer = { statusCode: number; data: unknown };

/** What identifies a request for its Idempotency-Key: the account, the key, and the route and body it came with. */
interface KeyedRequest {
  accountId: string;
  key: string | undefined;
  route: string;
  body: unknown;
}

/**
 * Runs `work` once per Idempotency-Key: a retry with the same key and body gets the first answer again (`replayed`),
 * the same key with another body is a 409. Errors are not remembered (the client may fix the request and retry with
 * the key). Without a key, `work` simply runs.
 */
export async function answerOnce(
  db: Database,
  now: () => Date,
  request: KeyedRequest,
  work: () => Promise<Answer>,
): Promise<{ answer: Answer; replayed: boolean }> {
  const { accountId, key } = request;
  if (!key) return { answer: await work(), replayed: false };
  const hash = createHash("sha256")
    .update(`${request.route}\n${JSON.stringify(request.body)}`)
    .digest("hex");
  const reservation = await reserveKey(db, accountId, key, hash, now());
  if (reservation.kind !== "reserved") {
    if (reservation.requestHash !== hash) {
      throw errors.conflict("This Idempotency-Key was used with a different request in the last 24 hours; use a new key for a new request.", [
        { field: "Idempotency-Key", issue: "already used with another body" },
      ]);
    }
    if (reservation.kind === "in_progress") throw errors.conflict("A request with this Idempotency-Key is still being answered; retry in a moment.");
    return { answer: { statusCode: reservation.statusCode, data: reservation.response }, replayed: true };
  }
  try {
    const answer = await work();
    await completeKey(db, accountId, key, answer.statusCode, answer.data);
    return { answer, replayed: false };
  } catch (error) {
    await releaseKey(db, accountId, key);
    throw error;
  }
}
