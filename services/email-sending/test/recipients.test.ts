import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSubscriber } from "@apiplat/testing";
import { CaptureServer, startEmail, type EmailService } from "./helpers.js";

/** The account's opt-in contacts (suppressions are tested with what adds and lifts them: public, delivery, inbound). */

let capture: CaptureServer;
let started: EmailService;
let caller: TestSubscriber;

beforeAll(async () => {
  capture = new CaptureServer();
  await capture.start();
  started = await startEmail(capture, { publicBaseUrl: "https://mail.example.test" });
  caller = await started.subscribe("PRO");
});
afterAll(async () => {
  await started.close();
  await capture.stop();
});

const addContact = (email: string, headers = caller.headers) =>
  started.app.inject({ method: "POST", url: "/contacts", headers, payload: { email, consent_at: "2026-01-02T03:04:05Z", source: "signup form" } });

describe("contacts", () => {
  it("adds, reads, lists and removes opt-in contacts; bad input is a 400 naming the field", async () => {
    const account = await started.subscribe("PRO");
    const added = await addContact("Zoe@Example.com", account.headers);
    expect(added.json().data).toMatchObject({ email: "zoe@example.com", consent_at: "2026-01-02T03:04:05.000Z", source: "signup form" });
    await addContact("amy@example.com", account.headers);
    const list = await started.app.inject({ method: "GET", url: "/contacts?limit=1", headers: account.headers });
    expect(list.json().data.contacts.map((c: { email: string }) => c.email)).toEqual(["amy@example.com"]);
    const next = await started.app.inject({ method: "GET", url: "/contacts?after=amy@example.com", headers: account.headers });
    expect(next.json().data.contacts.map((c: { email: string }) => c.email)).toEqual(["zoe@example.com"]);
    expect((await started.app.inject({ method: "GET", url: "/contacts/ZOE@example.com", headers: account.headers })).statusCode).toBe(200);
    expect((await started.app.inject({ method: "DELETE", url: "/contacts/zoe@example.com", headers: account.headers })).statusCode).toBe(204);
    expect((await started.app.inject({ method: "GET", url: "/contacts/zoe@example.com", headers: account.headers })).statusCode).toBe(404);
    const bad = await started.app.inject({
      method: "POST",
      url: "/contacts",
      headers: account.headers,
      payload: { email: "nope", consent_at: "2026-01-02T03:04:05Z", source: "x" },
    });
    expect(bad.json().error.details).toEqual([{ field: "email", issue: "must be a bare email address such as ada@example.com" }]);
    const future = await started.app.inject({
      method: "POST",
      url: "/contacts",
      headers: account.headers,
      payload: { email: "f@example.com", consent_at: "2099-01-01T00:00:00Z", source: "x" },
    });
    expect(future.json().error.details[0].field).toBe("consent_at");
  });
});
