import { describe, expect, it } from "vitest";
import { addContact, emailUnderTest } from "./helpers.js";

/** The account's opt-in contacts (suppressions are tested with what adds and lifts them: public, delivery, inbound). */

const email = emailUnderTest({ publicBaseUrl: "https://mail.example.test" });

describe("contacts", () => {
  it("adds, reads, lists and removes opt-in contacts; bad input is a 400 naming the field", async () => {
    const account = await email.started.subscribe("PRO");
    const added = await addContact(email.started, account.headers, "Zoe@Example.com");
    expect(added.json().data).toMatchObject({ email: "zoe@example.com", consent_at: "2026-01-02T03:04:05.000Z", source: "signup form" });
    await addContact(email.started, account.headers, "amy@example.com");
    const list = await email.started.app.inject({ method: "GET", url: "/contacts?limit=1", headers: account.headers });
    expect(list.json().data.contacts.map((c: { email: string }) => c.email)).toEqual(["amy@example.com"]);
    const next = await email.started.app.inject({ method: "GET", url: "/contacts?after=amy@example.com", headers: account.headers });
    expect(next.json().data.contacts.map((c: { email: string }) => c.email)).toEqual(["zoe@example.com"]);
    expect((await email.started.app.inject({ method: "GET", url: "/contacts/ZOE@example.com", headers: account.headers })).statusCode).toBe(200);
    expect((await email.started.app.inject({ method: "DELETE", url: "/contacts/zoe@example.com", headers: account.headers })).statusCode).toBe(204);
    expect((await email.started.app.inject({ method: "GET", url: "/contacts/zoe@example.com", headers: account.headers })).statusCode).toBe(404);
    const bad = await email.started.app.inject({
      method: "POST",
      url: "/contacts",
      headers: account.headers,
      payload: { email: "nope", consent_at: "2026-01-02T03:04:05Z", source: "x" },
    });
    expect(bad.json().error.details).toEqual([{ field: "email", issue: "must be a bare email address such as ada@example.com" }]);
    const future = await email.started.app.inject({
      method: "POST",
      url: "/contacts",
      headers: account.headers,
      payload: { email: "f@example.com", consent_at: "2099-01-01T00:00:00Z", source: "x" },
    });
    expect(future.json().error.details[0].field).toBe("consent_at");
  });
});
