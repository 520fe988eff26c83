import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { errors } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import type { LinkSigner } from "../domain/links.js";
import { escapeAttribute, machineAgent } from "../domain/tracking.js";
import type { EventRecorder } from "../delivery/events.js";
import * as S from "../schemas.js";
import { findMessageById } from "../store/messages.js";
import { liftWithConsent } from "../store/recipients.js";

/** The paths a message's reader reaches without a key: the open pixel, tracked links and the unsubscribe link. */
export interface PublicRoutesOptions {
  db: Database;
  links: LinkSigner;
  events: EventRecorder;
  now: () => Date;
}

/** The smallest transparent GIF (43 bytes). */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==", "base64");
const NO_STORE = { "cache-control": "no-store, no-cache, must-revalidate, private", pragma: "no-cache" };
const publicRoute = { config: { public: true } } as const;
/** In /openapi.json: reached without a key. */
const noKey = { security: [] };
const answer = (description: string, type: string) => ({ description, content: { [type]: { schema: Type.Unsafe<unknown>({ type: "string" }) } } });

/** A button, not a link: mail scanners follow links, and a re-subscribe must be the reader's own act. */
function resubscribeForm(url: string, question: string, label: string): string {
  return `</p><form method="post" action="${escapeAttribute(url)}"><p>${question} <button type="submit">${label}</button></p></form><p>`;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="viewport" content="width=device-width"></head><body style="font-family:sans-serif;max-width:32em;margin:4em auto"><h1>${title}</h1><p>${body}</p></body></html>`;
}

// Tokens are longer than a path parameter may be (find-my-way's 100 characters), so the routes end in a wildcard.

export const publicRoutes: FastifyPluginAsyncTypebox<PublicRoutesOptions> = async (app, { db, links, events, now }) => {
  // RFC 8058 one-click POSTs come as a form ("List-Unsubscribe=One-Click"); the body carries nothing we need.
  app.addContentTypeParser(
    ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"],
    { parseAs: "string", bodyLimit: 4096 },
    (_req, body, done) => done(null, body),
  );

  app.get(
    "/t/o/*",
    {
      ...publicRoute,
      schema: {
        summary: "Open pixel (public)",
        description: "A 1×1 GIF that records an open; opens by privacy proxies and scanners are flagged as machine opens.",
        params: S.WildcardToken,
        ...noKey,
        response: { 200: answer("A transparent 1×1 GIF (43 bytes)", "image/gif") },
      },
    },
    async (request, reply) => {
      const token = links.readOpen(request.params["*"]);
      const message = token ? await findMessageById(db, token.m) : null;
      if (message) {
        const machine = machineAgent(request.headers["user-agent"]);
        const recipient = message.recipients.length === 1 ? message.recipients[0] : null;
        await events.record(
          {
            messageId: message.id,
            accountId: message.account_id,
            type: "opened",
            recipient,
            detail: { machine_open: machine !== null, machine, user_agent: request.headers["user-agent"] ?? null },
          },
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
    {
      ...publicRoute,
      schema: {
        summary: "Tracked link (public)",
        description: "Records the click and redirects to the link's target. Only links the service signed redirect: no open redirect.",
        params: S.WildcardToken,
        ...noKey,
        response: { 302: Type.Null({ description: "A redirect to the link's target (Location)" }) },
      },
    },
    async (request, reply) => {
      const token = links.readClick(request.params["*"]);
      if (!token) throw errors.notFound("This link is not valid: it was altered or never issued.");
      const message = await findMessageById(db, token.m);
      if (message) {
        const machine = machineAgent(request.headers["user-agent"]);
        const recipient = message.recipients.length === 1 ? message.recipients[0] : null;
        await events.record(
          {
            messageId: message.id,
            accountId: message.account_id,
            type: "clicked",
            recipient,
            detail: { url: token.u, machine_click: machine !== null, machine, user_agent: request.headers["user-agent"] ?? null },
          },
          undefined,
          machine !== null,
        );
      }
      return reply.headers(NO_STORE).redirect(token.u, 302);
    },
  );

  /** Whose link it is: the message it came with, and the recipient it was made for (or null: not a link we issued). */
  const unsubscribeTarget = async (rawToken: string) => {
    const link = links.readUnsubscribe(rawToken);
    if (!link) return null;
    if (link.kind === "legacy")
      return { accountId: link.accountId, email: link.email.toLowerCase(), messageId: link.messageId, message: await findMessageById(db, link.messageId) };
    const message = await findMessageById(db, link.token.messageId);
    const email = message ? links.recipientOf("unsubscribe", link.token, message.recipients) : null;
    return message && email ? { accountId: message.account_id, email, messageId: message.id, message } : null;
  };

  const unsubscribe = async (rawToken: string) => {
    const target = await unsubscribeTarget(rawToken);
    if (!target) throw errors.notFound("This unsubscribe link is not valid: it was altered or never issued.");
    const added = await events.suppress(target.accountId, target.email, "unsubscribed", "unsubscribe link", target.messageId);
    if (added && target.message) {
      await events.record(
        { messageId: target.messageId, accountId: target.accountId, type: "unsubscribed", recipient: target.email, detail: {} },
        undefined,
        true,
      );
    }
    return { email: target.email, resubscribeUrl: links.resubscribeUrl(rawToken) };
  };

  app.get(
    "/unsubscribe/*",
    {
      ...publicRoute,
      schema: {
        summary: "Unsubscribe link (public)",
        description: "Unsubscribes the reader at once (no login) and shows a confirmation page; idempotent.",
        params: S.WildcardToken,
        ...noKey,
        response: { 200: answer("A confirmation page", "text/html") },
      },
    },
    async (request, reply) => {
      const done = await unsubscribe(request.params["*"]);
      const undo = resubscribeForm(done.resubscribeUrl, "Unsubscribed by mistake?", "Re-subscribe");
      return reply
        .headers(NO_STORE)
        .type("text/html; charset=utf-8")
        .send(page("You are unsubscribed", `${escapeAttribute(done.email)} will get no more marketing mail from this sender.${undo}`));
    },
  );

  app.post(
    "/unsubscribe/*",
    {
      ...publicRoute,
      schema: {
        summary: "One-click unsubscribe (public, RFC 8058)",
        description: "What mail clients POST for List-Unsubscribe-Post: takes effect at once; idempotent.",
        params: S.WildcardToken,
        ...noKey,
        response: { 200: answer('"unsubscribed"', "text/plain") },
      },
    },
    async (request, reply) => {
      await unsubscribe(request.params["*"]);
      return reply.headers(NO_STORE).type("text/plain; charset=utf-8").send("unsubscribed\n");
    },
  );

  /** The re-subscribe link is the unsubscribe link's token: whoever may unsubscribe that address may undo it. */
  const resubscribeTarget = async (rawToken: string) => {
    const target = await unsubscribeTarget(rawToken);
    if (!target) throw errors.notFound("This re-subscribe link is not valid: it was altered or never issued.");
    return target;
  };

  app.get(
    "/resubscribe/*",
    {
      ...publicRoute,
      schema: {
        summary: "Re-subscribe page (public)",
        description: "Asks the reader to confirm with a button (a POST): opening the link changes nothing.",
        params: S.WildcardToken,
        ...noKey,
        response: { 200: answer("A page with a re-subscribe button", "text/html") },
      },
    },
    async (request, reply) => {
      const target = await resubscribeTarget(request.params["*"]);
      const form = resubscribeForm(`${request.params["*"]}`, `Get marketing mail from this sender at ${escapeAttribute(target.email)} again?`, "Re-subscribe");
      return reply.headers(NO_STORE).type("text/html; charset=utf-8").send(page("Re-subscribe", form));
    },
  );

  app.post(
    "/resubscribe/*",
    {
      ...publicRoute,
      schema: {
        summary: "Re-subscribe (public)",
        description: "Lifts the reader's own unsubscribe or complaint for this sender and records it as their consent; idempotent.",
        params: S.WildcardToken,
        ...noKey,
        response: { 200: answer("A confirmation page", "text/html") },
      },
    },
    async (request, reply) => {
      const target = await resubscribeTarget(request.params["*"]);
      const at = now();
      await liftWithConsent(db, target.accountId, target.email, { liftedBy: "recipient", source: "re-subscribe link", consentedAt: at, recordedAt: at });
      return reply
        .headers(NO_STORE)
        .type("text/html; charset=utf-8")
        .send(page("You are subscribed again", `${escapeAttribute(target.email)} will get marketing mail from this sender again.`));
    },
  );
};
