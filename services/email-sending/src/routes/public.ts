import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import type { ServiceApp } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import type { LinkSigner } from "../domain/links.js";
import { escapeAttribute } from "../domain/tracking.js";
import type { EventRecorder } from "../delivery/events.js";
import * as S from "../schemas.js";
import { recordClick, recordOpen, resubscribe, resubscribeTarget, unsubscribe, type ReaderDeps } from "../app/reader-actions.js";

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

export const publicRoutes: FastifyPluginAsyncTypebox<PublicRoutesOptions> = async (app, options) => {
  // RFC 8058 one-click POSTs come as a form ("List-Unsubscribe=One-Click"); the body carries nothing we need.
  app.addContentTypeParser(
    ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"],
    { parseAs: "string", bodyLimit: 4096 },
    (_req, body, done) => done(null, body),
  );
  openPixelRoute(app, options);
  trackedLinkRoute(app, options);
  unsubscribeRoutes(app, options);
  resubscribeRoutes(app, options);
};

function openPixelRoute(app: ServiceApp, deps: ReaderDeps): void {
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
      await recordOpen(deps, request.params["*"], request.headers["user-agent"]);
      // A broken pixel would show in the reader's mail client: answer the image whatever the token.
      return reply.headers(NO_STORE).type("image/gif").send(PIXEL);
    },
  );
}

function trackedLinkRoute(app: ServiceApp, deps: ReaderDeps): void {
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
      const target = await recordClick(deps, request.params["*"], request.headers["user-agent"]);
      return reply.headers(NO_STORE).redirect(target, 302);
    },
  );
}

function unsubscribeRoutes(app: ServiceApp, deps: ReaderDeps): void {
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
      const done = await unsubscribe(deps, request.params["*"]);
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
      await unsubscribe(deps, request.params["*"]);
      return reply.headers(NO_STORE).type("text/plain; charset=utf-8").send("unsubscribed\n");
    },
  );
}

function resubscribeRoutes(app: ServiceApp, deps: ReaderDeps): void {
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
      const target = await resubscribeTarget(deps, request.params["*"]);
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
      const email = await resubscribe(deps, request.params["*"]);
      return reply
        .headers(NO_STORE)
        .type("text/html; charset=utf-8")
        .send(page("You are subscribed again", `${escapeAttribute(email)} will get marketing mail from this sender again.`));
    },
  );
}
