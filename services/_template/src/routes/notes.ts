import { randomBytes } from "node:crypto";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import { countWords, normalizeTitle } from "../domain/notes.js";
import * as S from "../schemas.js";
import { countNotes, findNote, insertNote, type NoteRow } from "../store/notes.js";

/** A route module: HTTP shape only, its dependencies passed in its options. */
export interface NoteRoutesOptions {
  db: Database;
  now: () => Date;
  maxNotesPerAccount: number;
}

function view(row: NoteRow): S.Note {
  return { id: row.id, title: row.title, body: row.body, word_count: row.word_count, created_at: row.created_at.toISOString() };
}

export const noteRoutes: FastifyPluginAsyncTypebox<NoteRoutesOptions> = async (app, { db, now, maxNotesPerAccount }) => {
  app.post(
    "/notes",
    {
      schema: {
        summary: "Keep a note",
        description: "Stores a note for the calling account and returns it with its word count.",
        body: S.NoteBody,
        response: { 201: successSchema(S.Note) },
      },
    },
    async (request, reply) => {
      const accountId = request.subscriber.accountId;
      if ((await countNotes(db, accountId)) >= maxNotesPerAccount) {
        throw errors.conflict(`This account already keeps ${maxNotesPerAccount} notes, the most it may keep.`);
      }
      const row: NoteRow = {
        id: `note_${randomBytes(8).toString("hex")}`,
        account_id: accountId,
        title: normalizeTitle(request.body.title),
        body: request.body.body,
        word_count: countWords(request.body.body),
        created_at: now(),
      };
      await insertNote(db, row);
      return reply.code(201).send(ok(view(row)));
    },
  );

  app.get(
    "/notes/:id",
    {
      schema: {
        summary: "Read a note",
        description: "Returns one of the calling account's notes.",
        params: S.NoteParams,
        response: { 200: successSchema(S.Note) },
      },
    },
    async (request) => {
      const row = await findNote(db, request.subscriber.accountId, request.params.id);
      if (!row) throw errors.notFound(`No note ${request.params.id}.`);
      return ok(view(row));
    },
  );
};
