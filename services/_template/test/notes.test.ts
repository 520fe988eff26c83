import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type StartedService, type TestSubscriber } from "@apiplat/testing";
import service from "../src/service.js";

let started: StartedService;
let caller: TestSubscriber;

beforeAll(async () => {
  started = await startService(service, { settings: { maxNotesPerAccount: 2 } });
  caller = await started.subscribe("PRO");
});
afterAll(() => started.close());

const post = (payload: object, headers = caller.headers) => started.app.inject({ method: "POST", url: "/notes", headers, payload });
const get = (id: string, headers = caller.headers) => started.app.inject({ method: "GET", url: `/notes/${id}`, headers });

describe("POST /notes", () => {
  it("keeps a note with its normalized title and word count", async () => {
    const res = await post({ title: "  Shopping \n list ", body: "Milk, eggs and bread — and 2 apples." });
    expect(res.statusCode).toBe(201);
    const note = res.json().data;
    expect(note).toMatchObject({ title: "Shopping list", body: "Milk, eggs and bread — and 2 apples.", word_count: 7 });
    expect(note.id).toMatch(/^note_[0-9a-f]{16}$/);
    expect((await get(note.id)).json().data).toEqual(note);
  });

  it("refuses a title over 200 characters, naming the field", async () => {
    expect((await post({ title: "x".repeat(200), body: "" })).statusCode).toBe(201);
    const res = await post({ title: "x".repeat(201), body: "" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "title" }] });
  });

  it("keeps at most the configured number of notes per account", async () => {
    const other = await started.subscribe("PRO");
    expect((await post({ title: "a", body: "" }, other.headers)).statusCode).toBe(201);
    expect((await post({ title: "b", body: "" }, other.headers)).statusCode).toBe(201);
    const res = await post({ title: "c", body: "" }, other.headers);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toContain("2 notes");
  });
});

describe("GET /notes/{id}", () => {
  it("is a 404 for another account's note", async () => {
    const owner = await started.subscribe("PRO");
    const id = (await post({ title: "mine", body: "" }, owner.headers)).json().data.id;
    const other = await started.subscribe("PRO");
    expect((await get(id, other.headers)).statusCode).toBe(404);
  });
});

describe("auth", () => {
  it("needs a key", async () => {
    const res = await started.app.inject({ method: "GET", url: "/notes/note_0" });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe("MISSING_API_KEY");
  });

  it("refuses another service's host", async () => {
    const res = await get("note_0", { ...caller.headers, "x-gateway-host": "text-toolkit.api.local" });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe("HOST_MISMATCH");
  });
});
