import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { errors, isApiError, ok, successSchema, type ServiceApp } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import { Type } from "typebox";
import type { SendInput } from "../domain/message.js";
import { textFromHtml } from "../domain/message.js";
import type { Submission } from "../app/submission.js";
import * as S from "../schemas.js";
import { answerOnce, type Answer } from "../app/idempotency.js";
import { findTemplate } from "../store/templates.js";
import { renderSaved } from "./templates.js";

export interface SendRoutesOptions {
  db: Database;
  now: () => Date;
  submission: Submission;
}

const IdempotencyHeaders = Type.Object({
  "idempotency-key": Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: "a retried request with the same key returns the first answer for 24 hours" }),
  ),
});

/** Answers through answerOnce: a replayed answer says so in a header. */
async function idempotent(db: Database, now: () => Date, request: FastifyRequest, reply: FastifyReply, work: () => Promise<Answer>) {
  const keyed = {
    accountId: request.subscriber.accountId,
    key: request.headers["idempotency-key"] as string | undefined,
    route: request.routeOptions.url ?? "",
    body: request.body,
  };
  const { answer, replayed } = await answerOnce(db, now, keyed, work);
  if (replayed) reply.header("idempotent-replayed", "true");
  return reply.code(answer.statusCode).send(ok(answer.data));
}

/** Messages of a batch stored at once: each is one short transaction, so a few in parallel share the commits. */
const BATCH_CONCURRENCY = 8;

/** `work` over `items` with at most `limit` running at once; results in the order of the items. */
async function mapConcurrently<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

function errorBody(error: unknown) {
  if (isApiError(error)) return { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  throw error;
}

export const sendRoutes: FastifyPluginAsyncTypebox<SendRoutesOptions> = async (app, options) => {
  sendRoute(app, options);
  sendBatchRoute(app, options);
  sendTemplateRoute(app, options);
};

function sendRoute(app: ServiceApp, { db, now, submission }: SendRoutesOptions): void {
  app.post(
    "/send",
    {
      schema: {
        summary: "Send a message",
        description:
          "Validates, stores and queues a message, then answers 202: delivery runs in the background. Recipients that are suppressed (or, for marketing mail, not opted in) are refused one by one and listed under rejected.",
        headers: IdempotencyHeaders,
        body: S.SendBody,
        response: { 202: successSchema(S.Accepted) },
      },
    },
    async (request, reply) =>
      idempotent(db, now, request, reply, async () => ({
        statusCode: 202,
        data: await submission.submit(request.subscriber.accountId, request.subscriber.plan, request.body as SendInput),
      })),
  );
}

function sendBatchRoute(app: ServiceApp, { db, now, submission }: SendRoutesOptions): void {
  app.post(
    "/send/batch",
    {
      schema: {
        summary: "Send up to 100 messages",
        description:
          "Each message is checked and queued on its own: one bad message does not fail the others. The answer lists one result per message, in order.",
        headers: IdempotencyHeaders,
        body: S.BatchBody,
        response: { 202: successSchema(S.BatchResult) },
      },
    },
    async (request, reply) =>
      idempotent(db, now, request, reply, async () => {
        const { accountId, plan } = request.subscriber;
        const results = await mapConcurrently(request.body.messages, BATCH_CONCURRENCY, async (message, index) => {
          try {
            return { index, status: "accepted" as const, message: await submission.submit(accountId, plan, message as SendInput) };
          } catch (error) {
            return { index, status: "error" as const, error: errorBody(error) };
          }
        });
        const accepted = results.filter((r) => r.status === "accepted").length;
        return { statusCode: 202, data: { results, accepted, failed: results.length - accepted } };
      }),
  );
}

function sendTemplateRoute(app: ServiceApp, { db, now, submission }: SendRoutesOptions): void {
  app.post(
    "/send/template",
    {
      schema: {
        summary: "Send a message from a saved template",
        description:
          "Renders a saved template (subject, HTML and text) with the variables and sends it like POST /send. No inline HTML. A variable the template needs and the request lacks is a 400 naming each one.",
        headers: IdempotencyHeaders,
        body: S.TemplateSendBody,
        response: { 202: successSchema(S.Accepted) },
      },
    },
    async (request, reply) =>
      idempotent(db, now, request, reply, async () => {
        const inline = S.INLINE_CONTENT_FIELDS.filter((field) => (request.body as Record<string, unknown>)[field] !== undefined);
        if (inline.length > 0) {
          throw errors.validationMany(
            inline.map((field) => ({
              field,
              issue:
                "is not accepted here: the saved template gives the content (change it with PUT /templates/{name}, or send your own content with POST /send)",
            })),
          );
        }
        const { template: name, version, variables = {}, ...envelope } = request.body;
        const accountId = request.subscriber.accountId;
        const template = await findTemplate(db, accountId, name, version);
        if (!template) throw errors.notFound(version ? `No version ${version} of the template ${name}.` : `No template named ${name}.`);
        const rendered = renderSaved(name, { subject: template.subject, html: template.html, text: template.text_body }, variables);
        const input: SendInput = {
          ...(envelope as Omit<SendInput, "subject">),
          subject: rendered.subject || name,
          html: rendered.html,
          text: rendered.text ?? textFromHtml(rendered.html),
        };
        return {
          statusCode: 202,
          data: await submission.submit(accountId, request.subscriber.plan, input, { name: template.name, version: template.version }),
        };
      }),
  );
}
