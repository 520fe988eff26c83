import { beforeAll, describe, expect, it } from "vitest";
import { emailUnderTest, waitForMessage } from "./helpers.js";

const ids: string[] = [];

const email = emailUnderTest();
beforeAll(async () => {
  for (const [i, tag] of ["a", "b", "a", "b", "a"].entries()) {
    const res = await email.started.app.inject({
      method: "POST",
      url: "/send",
      headers: email.caller.headers,
      payload: { to: `r${i}@example.com`, subject: `m${i}`, html: "<p>x</p>", tags: [tag] },
    });
    ids.push(res.json().data.id);
  }
  for (const id of ids) await waitForMessage(email.started, email.caller.headers, id, (m) => m.status === "sent");
});

const list = (query: string, headers = email.caller.headers) => email.started.app.inject({ method: "GET", url: `/messages${query}`, headers });

describe("GET /messages", () => {
  it("lists newest first and pages with a cursor, without gaps or repeats", async () => {
    const first = (await list("?limit=2")).json().data;
    expect(first.messages.map((m: { id: string }) => m.id)).toEqual([ids[4], ids[3]]);
    const second = (await list(`?limit=2&cursor=${first.next_cursor}`)).json().data;
    expect(second.messages.map((m: { id: string }) => m.id)).toEqual([ids[2], ids[1]]);
    const third = (await list(`?limit=2&cursor=${second.next_cursor}`)).json().data;
    expect(third).toMatchObject({ messages: [{ id: ids[0] }], next_cursor: null });
  });

  it("filters by tag, recipient, status and time", async () => {
    expect((await list("?tag=b")).json().data.messages.map((m: { id: string }) => m.id)).toEqual([ids[3], ids[1]]);
    expect((await list("?recipient=R2@example.com")).json().data.messages.map((m: { id: string }) => m.id)).toEqual([ids[2]]);
    expect((await list("?status=sent")).json().data.messages).toHaveLength(5);
    expect((await list("?status=bounced")).json().data.messages).toHaveLength(0);
    const at = (await email.started.app.inject({ method: "GET", url: `/messages/${ids[2]}`, headers: email.caller.headers })).json().data.submitted_at;
    expect((await list(`?submitted_after=${at}`)).json().data.messages.map((m: { id: string }) => m.id)).toEqual([ids[4], ids[3], ids[2]]);
    expect((await list(`?submitted_before=${at}`)).json().data.messages.map((m: { id: string }) => m.id)).toEqual([ids[1], ids[0]]);
  });

  it("refuses bad filters with a 400 naming them, and shows nothing of other accounts", async () => {
    expect((await list("?status=lost")).json().error.details[0].field).toBe("status");
    expect((await list("?limit=101")).json().error.details[0].field).toBe("limit");
    expect((await list("?cursor=garbage")).statusCode).toBe(400);
    const other = await email.started.subscribe("PRO");
    expect((await list("", other.headers)).json().data.messages).toEqual([]);
    expect((await email.started.app.inject({ method: "GET", url: `/messages/${ids[0]}`, headers: other.headers })).statusCode).toBe(404);
  });
});
