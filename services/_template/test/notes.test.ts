import { describe, expect, it } from "vitest";
import { client, startService } from "@apiplat/testing";
import { describeAuth } from "@apiplat/testing/auth-suite";
import { serviceUnderTest } from "@apiplat/testing/service-under-test";
import * as S from "../src/schemas.js";
import service from "../src/service.js";

// Starts the service before this file's tests (a PRO caller subscribed) and closes it after them.
const svc = serviceUnderTest(() => startService(service, { settings: { maxNotesPerAccount: 2 } }));
const api = () => client(svc.started, svc.caller.headers);

const post = (payload: object, headers = svc.caller.headers) => api().post(S.Note, "/notes", payload, headers);
const get = (id: string, headers = svc.caller.headers) => api().get(S.Note, `/notes/${id}`, headers);

describe("POST /notes", () => {
  it("keeps a note with its normalized title and word count", async () => {
    const res = await post({ title: "  Shopping \n list ", body: "Milk, eggs and bread — and 2 apples." });
    expect(res.status).toBe(201);
    const note = res.data;
    expect(note).toMatchObject({ title: "Shopping list", body: "Milk, eggs and bread — and 2 apples.", word_count: 7 });
    expect(note.id).toMatch(/^note_[0-9a-f]{16}$/);
    expect((await get(note.id)).data).toEqual(note);
  });

  it("refuses a title over 200 characters, naming the field", async () => {
    expect((await post({ title: "x".repeat(200), body: "" })).status).toBe(201);
    const res = await post({ title: "x".repeat(201), body: "" });
    expect(res.status).toBe(400);
    expect(res.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "title" }] });
  });

  it("keeps at most the configured number of notes per account", async () => {
    const other = await svc.started.subscribe("PRO");
    expect((await post({ title: "a", body: "" }, other.headers)).status).toBe(201);
    expect((await post({ title: "b", body: "" }, other.headers)).status).toBe(201);
    const res = await post({ title: "c", body: "" }, other.headers);
    expect(res.status).toBe(409);
    expect(res.error.message).toContain("2 notes");
  });
});

describe("GET /notes/{id}", () => {
  it("is a 404 for another account's note", async () => {
    const owner = await svc.started.subscribe("PRO");
    const id = (await post({ title: "mine", body: "" }, owner.headers)).data.id;
    const other = await svc.started.subscribe("PRO");
    expect((await get(id, other.headers)).status).toBe(404);
  });
});

describeAuth({ started: () => svc.started, method: "GET", url: "/notes/note_0" });
