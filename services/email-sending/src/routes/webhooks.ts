import { randomBytes } from "node:crypto";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, isApiError, ok, successSchema, type ServiceApp } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import { generateSigningSecret } from "@apiplat/webhook-delivery";
import { Type } from "typebox";
import * as S from "../schemas.js";
import { deleteWebhook, findWebhook, insertWebhook, listWebhooks, recentDeliveries, type WebhookRow } from "../store/webhooks.js";

export interface WebhookRoutesOptions {
  db: Database;
  now: () => Date;
  /** The shared outbound guard's check: http(s) only, no private or metadata addresses. */
  checkUrl: (url: string, field: string) => Promise<unknown>;
  maxWebhooksPerAccount: number;
}

/**
 * The guard's check, with a host that does not resolve answered as what it is at registration: the subscriber's
 * mistake in `url` (400), not a failure upstream.
 */
async function checkWebhookUrl(checkUrl: WebhookRoutesOptions["checkUrl"], url: string): Promise<void> {
  try {
    await checkUrl(url, "url");
  } catch (error) {
    if (isApiError(error) && error.statusCode === 502) {
      throw errors.validation("url", `names a host that does not resolve (${new URL(url).hostname} has no DNS address); give a URL whose host resolves`);
    }
    throw error;
  }
}

const view = (row: WebhookRow) => ({
  id: row.id,
  url: row.url,
  event_types: row.event_types,
  signing_secret: row.secret,
  created_at: row.created_at.toISOString(),
});

export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesOptions> = async (app, options) => {
  addWebhookRoute(app, options);
  listWebhooksRoute(app, options);
  readWebhookRoute(app, options);
  deleteWebhookRoute(app, options);
};

function addWebhookRoute(app: ServiceApp, { db, now, checkUrl, maxWebhooksPerAccount }: WebhookRoutesOptions): void {
  app.post(
    "/webhooks",
    {
      schema: {
        summary: "Register a status webhook",
        description:
          "Every status change of the chosen types is POSTed to the URL as JSON, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) with the returned secret, and retried with backoff for about 7.5 hours.",
        body: S.WebhookBody,
        response: { 201: successSchema(S.Webhook) },
      },
    },
    async (request, reply) => {
      const accountId = request.subscriber.accountId;
      await checkWebhookUrl(checkUrl, request.body.url);
      if ((await listWebhooks(db, accountId)).length >= maxWebhooksPerAccount) {
        throw errors.conflict(`This account already has ${maxWebhooksPerAccount} webhooks, the most it may have.`);
      }
      const row: WebhookRow = {
        id: `wh_${randomBytes(8).toString("hex")}`,
        account_id: accountId,
        url: request.body.url,
        event_types: request.body.event_types,
        secret: generateSigningSecret(),
        created_at: now(),
      };
      await insertWebhook(db, row);
      return reply.code(201).send(ok(view(row)));
    },
  );
}

function listWebhooksRoute(app: ServiceApp, { db }: WebhookRoutesOptions): void {
  app.get(
    "/webhooks",
    {
      schema: {
        summary: "List webhooks",
        description: "The account's webhooks with their signing secrets.",
        response: { 200: successSchema(Type.Object({ webhooks: Type.Array(S.Webhook) })) },
      },
    },
    async (request) => ok({ webhooks: (await listWebhooks(db, request.subscriber.accountId)).map(view) }),
  );
}

function readWebhookRoute(app: ServiceApp, { db }: WebhookRoutesOptions): void {
  app.get(
    "/webhooks/:id",
    {
      schema: {
        summary: "Read a webhook",
        description: "With its 20 most recent deliveries (state, attempts, last HTTP status).",
        params: S.WebhookParams,
        response: { 200: successSchema(S.WebhookDetail) },
      },
    },
    async (request) => {
      const row = await findWebhook(db, request.subscriber.accountId, request.params.id);
      if (!row) throw errors.notFound(`No webhook ${request.params.id}.`);
      const deliveries = await recentDeliveries(db, row.id, 20);
      return ok({
        ...view(row),
        recent_deliveries: deliveries.map((d) => ({ ...d, next_attempt_at: d.next_attempt_at.toISOString(), created_at: d.created_at.toISOString() })),
      });
    },
  );
}

function deleteWebhookRoute(app: ServiceApp, { db }: WebhookRoutesOptions): void {
  app.delete(
    "/webhooks/:id",
    { schema: { summary: "Delete a webhook", description: "Its pending deliveries are dropped.", params: S.WebhookParams, response: { 204: Type.Null() } } },
    async (request, reply) => {
      if (!(await deleteWebhook(db, request.subscriber.accountId, request.params.id))) throw errors.notFound(`No webhook ${request.params.id}.`);
      return reply.code(204).send(null);
    },
  );
}
