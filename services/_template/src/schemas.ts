import { Type, type Static } from "typebox";
import { BODY_MAX_LENGTH, TITLE_MAX_LENGTH } from "./domain/notes.js";

export const NoteBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: TITLE_MAX_LENGTH, description: `1 to ${TITLE_MAX_LENGTH} characters` }),
    body: Type.String({ maxLength: BODY_MAX_LENGTH, description: `at most ${BODY_MAX_LENGTH} characters` }),
  },
  { examples: [{ title: "Groceries", body: "Milk, eggs and bread." }] },
);

export const Note = Type.Object({
  id: Type.String({ description: "note_ followed by 16 hex characters" }),
  title: Type.String(),
  body: Type.String(),
  word_count: Type.Integer({ description: "words in the body, as Intl.Segmenter counts them" }),
  created_at: Type.String({ format: "date-time" }),
});
export type Note = Static<typeof Note>;

export const NoteParams = Type.Object({ id: Type.String({ maxLength: 64, description: "a note's id" }) });
