import type { Queryable } from "@apiplat/storage";

export interface NoteRow {
  id: string;
  account_id: string;
  title: string;
  body: string;
  word_count: number;
  created_at: Date;
}

export async function insertNote(db: Queryable, note: NoteRow): Promise<void> {
  await db.query("INSERT INTO notes (id, account_id, title, body, word_count, created_at) VALUES ($1, $2, $3, $4, $5, $6)", [
    note.id,
    note.account_id,
    note.title,
    note.body,
    note.word_count,
    note.created_at,
  ]);
}

/** A note of this account; another account's note is as absent as one that never existed. */
export async function findNote(db: Queryable, accountId: string, id: string): Promise<NoteRow | null> {
  const { rows } = await db.query<NoteRow>("SELECT * FROM notes WHERE account_id = $1 AND id = $2", [accountId, id]);
  return rows[0] ?? null;
}

export async function countNotes(db: Queryable, accountId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>("SELECT count(*)::int AS count FROM notes WHERE account_id = $1", [accountId]);
  return rows[0].count;
}
