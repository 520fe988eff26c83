import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { errors } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import type { LinkSigner } from "../domain/links.js";
import { escapeAttribute, machineAgent } from "../domain/tracking.js";
import type { EventRecorder } from "../delivery/events.js";
import * as S from "../schemas.js";
import { findMessageById } from "../store/messages.js";

/** The paths a message's reader reaches without a key: the open pixel, tracked links and the unsubscribe link. */
export interface PublicRoutesOptions {
  db: Database;
  links: LinkSigner;
  events: EventRecorder;
}

/** The smallest transparent GIF (43 bytes). */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64");
const NO_STORE = { "cache-control": "no-store, no-cache, must-revalidate, private", pragma: "no-cache" };
const publicRoute = { config: { public: true } } as const;
/** In /openapi.json: reached without a key. */
const noKey = { security: [] };
const answer = (description: string, type: string) => ({ description, content: { [type]: { schema: Type.Unsafe<unknown>({ type: "string" }) } } });

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="viewport" content="width=device-width"></head><body style="font-family:sans-serif;max-width:32em;margin:4em auto"><h1>${title}</h1><p>${body}</p></body></html>`;
}

// Tokens are longer than a path parameter may be (find-my-way's 100 characters), so the routes end in a wildcard.

export const publicRoutes: FastifyPluginAsyncTypebox<PublicRoutesOptions> = async (app, { db, links, events }) => {
  // RFC 8058 one-click POSTs come as a form ("List-Unsubscribe=One-Click"); the body carries nothing we need.
  app.addContentTypeParser(["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"], { parseAs: "string", bodyLimit: 4096 }, (_req, body, done) =>
    done(null, body),
  );

  app.get(
    "/t/o/*",
    { ...publicRoute, schema: { summary: "Open pixel (public)", description: "A 1×1 GIF that records an open; opens by privacy proxies and scanners are flagged as machine opens.", params: S.WildcardToken, ...noKey, response: { 200: answer("A transparent 1×1 GIF (43 bytes)", "image/gif") } } },
    async (request, reply) => {
      const token = links.readOpen(request.params["*"]);
      const message = token ? await findMessageById(db, token.m) : null;
      if (message) {
        const machine = machineAgent(request.headers["user-agent"]);
        const recipient = message.recipients.length === 1 ? message.recipients[0] : null;
        await events.record(
          { messageId: message.id, accountId: message.account_id, type: "opened", recipient, detail: { machine_open: machine !== null, machine, user_agent: request.headers["user-agent"] ?? null } },
          undefined,
          machine !== null,
        );
      }
      // A broken pixel would show in the reader's mail client: answer the image whatever the token.
      return reply.headers(NO_STORE).type("image/gif").send(PIXEL);
    },
  );

  app.get(
    "/t/c/*",
    { ...publicRoute, schema: { summary: "Tracked link (public)", description: "Records the click and redirects to the link's target. Only links the service signed redirect: no open redirect.", params: S.WildcardToken, ...noKey, response: { 302: Type.Null({ description: "A redirect to the link's target (Location)" }) } } },
    async (request, reply) => {
      const token = links.readClick(request.params["*"]);
      if (!token) throw errors.notFound("This link is not valid: it was altered or never issued.");
      const message = await findMessageById(db, token.m);
      if (message) {
        const machine = machineAgent(request.headers["user-agent"]);
        const recipient = message.recipients.length === 1 ? message.recipients[0] : null;
        await events.record(
          { messageId: message.id, accountId: message.account_id, type: "clicked", recipient, detail: { url: token.u, machine_click: machine !== null, machine, user_agent: request.headers["user-agent"] ?? null } },
          undefined,
          machine !== null,
        );
      }
      return reply.headers(NO_STORE).redirect(token.u, 302);
    },
  );

  const unsubscribe = async (rawToken: string) => {
    const token = links.readUnsubscribe(rawToken);
    if (!token) throw errors.notFound("This unsubscribe link is not valid: it was altered or never issued.");
    const added = await events.suppress(token.a, token.e, "unsubscribed", "unsubscribe link", token.m);
    if (added && (await findMessageById(db, token.m))) {
      await events.record({ messageId: token.m, accountId: token.a, type: "unsubscribed", recipient: token.e, detail: {} }, undefined, true);
    }
    return token;
  };

  app.get(
    "/unsubscribe/*",
    { ...publicRoute, schema: { summary: "Unsubscribe link (public)", description: "Unsubscribes the reader at once (no login) and shows a confirmation page; idempotent.", params: S.WildcardToken, ...noKey, response: { 200: answer("A confirmation page", "text/html") } } },
    async (request, reply) => {
      const token = await unsubscribe(request.params["*"]);
      return reply.headers(NO_STORE).type("text/html; charset=utf-8").send(page("You are unsubscribed", `${escapeAttribute(token.e)} will get no more marketing mail from this sender.`));
    },
  );

  app.post(
    "/unsubscribe/*",
    { ...publicRoute, schema: { summary: "One-click unsubscribe (public, RFC 8058)", description: "What mail clients POST for List-Unsubscribe-Post: takes effect at once; idempotent.", params: S.WildcardToken, ...noKey, response: { 200: answer('"unsubscribed"', "text/plain") } } },
    async (request, reply) => {
      await unsubscribe(request.params["*"]);
      return reply.headers(NO_STORE).type("text/plain; charset=utf-8").send("unsubscribed\n");
    },
  );
};
