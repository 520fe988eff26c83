import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema, type ServiceApp } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import { Type } from "typebox";
import { addressKey, parseAddress } from "../domain/addresses.js";
import * as S from "../schemas.js";
import {
  deleteContact,
  deleteSenderSuppression,
  findSuppression,
  suppress,
  liftWithConsent,
  RECIPIENT_SUPPRESSIONS,
  findContact,
  listContacts,
  listSuppressions,
  upsertContact,
  type ContactRow,
  type SuppressionRow,
} from "../store/recipients.js";

/** The opt-in list (contacts) and the suppression list: one route module, the two lists that decide who may get mail. */
export interface RecipientRoutesOptions {
  db: Database;
  now: () => Date;
}

const contactView = (row: ContactRow) => ({
  email: row.email,
  consent_at: row.consent_at.toISOString(),
  source: row.source,
  created_at: row.created_at.toISOString(),
});
const suppressionView = (row: SuppressionRow) => ({ ...row, created_at: row.created_at.toISOString() });

function emailParam(value: string, field = "email"): string {
  const mailbox = parseAddress(value);
  if (!mailbox || mailbox.name) throw errors.validation(field, "must be a bare email address such as ada@example.com");
  return addressKey(mailbox.address);
}

export const recipientRoutes: FastifyPluginAsyncTypebox<RecipientRoutesOptions> = async (app, options) => {
  addContactRoute(app, options);
  listContactsRoute(app, options);
  contactRoutes(app, options);
  listSuppressionsRoute(app, options);
  addSuppressionRoute(app, options);
  removeSuppressionRoute(app, options);
  consentRoute(app, options);
};

function addContactRoute(app: ServiceApp, { db, now }: RecipientRoutesOptions): void {
  app.post(
    "/contacts",
    {
      schema: {
        summary: "Add a contact to the opt-in list",
        description:
          "Marketing mail goes only to contacts on this list. Records when and where consent was given; adding an existing contact updates its consent.",
        body: S.ContactBody,
        response: { 201: successSchema(S.Contact) },
      },
    },
    async (request, reply) => {
      const email = emailParam(request.body.email);
      const consentAt = new Date(request.body.consent_at);
      if (consentAt.getTime() > now().getTime() + 5 * 60_000) throw errors.validation("consent_at", "must not be in the future");
      const row = await upsertContact(db, request.subscriber.accountId, { email, consent_at: consentAt, source: request.body.source, created_at: now() });
      return reply.code(201).send(ok(contactView(row)));
    },
  );
}

function listContactsRoute(app: ServiceApp, { db }: RecipientRoutesOptions): void {
  app.get(
    "/contacts",
    {
      schema: {
        summary: "List contacts",
        description: "By address; page with ?after=<last email>.",
        querystring: S.PageQuery,
        response: { 200: successSchema(Type.Object({ contacts: Type.Array(S.Contact) })) },
      },
    },
    async (request) =>
      ok({
        contacts: (await listContacts(db, request.subscriber.accountId, request.query.after?.toLowerCase() ?? null, request.query.limit ?? 100)).map(
          contactView,
        ),
      }),
  );
}

function contactRoutes(app: ServiceApp, { db, now }: RecipientRoutesOptions): void {
  app.get(
    "/contacts/:email",
    { schema: { summary: "Read a contact", description: "Consent time and source.", params: S.EmailParams, response: { 200: successSchema(S.Contact) } } },
    async (request) => {
      const row = await findContact(db, request.subscriber.accountId, emailParam(request.params.email));
      if (!row) throw errors.notFound(`${request.params.email} is not on the opt-in list.`);
      return ok(contactView(row));
    },
  );

  app.delete(
    "/contacts/:email",
    {
      schema: {
        summary: "Remove a contact",
        description: "Marketing mail to the address is refused from now on.",
        params: S.EmailParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      if (!(await deleteContact(db, request.subscriber.accountId, emailParam(request.params.email))))
        throw errors.notFound(`${request.params.email} is not on the opt-in list.`);
      return reply.code(204).send(null);
    },
  );
}

function listSuppressionsRoute(app: ServiceApp, { db }: RecipientRoutesOptions): void {
  app.get(
    "/suppressions",
    {
      schema: {
        summary: "List suppressed addresses",
        description: "Hard bounces, complaints and unsubscribes, added automatically. Page with ?after=<last email>; filter with ?reason=.",
        querystring: S.SuppressionQuery,
        response: { 200: successSchema(Type.Object({ suppressions: Type.Array(S.Suppression) })) },
      },
    },
    async (request) => {
      const q = request.query;
      const rows = await listSuppressions(db, request.subscriber.accountId, q.after?.toLowerCase() ?? null, q.limit ?? 100, q.reason);
      return ok({ suppressions: rows.map(suppressionView) });
    },
  );
}

function addSuppressionRoute(app: ServiceApp, { db, now }: RecipientRoutesOptions): void {
  app.post(
    "/suppressions",
    {
      schema: {
        summary: "Suppress an address yourself",
        description:
          "Adds the address with reason manual (mail to it is refused from now on); you may remove it again with DELETE. An address already suppressed keeps its first reason.",
        body: S.SuppressionBody,
        response: { 201: successSchema(S.Suppression) },
      },
    },
    async (request, reply) => {
      const accountId = request.subscriber.accountId;
      const email = emailParam(request.body.email);
      await suppress(db, accountId, { email, reason: "manual", detail: "added by the sender", message_id: null, created_at: now() });
      return reply.code(201).send(ok(suppressionView((await findSuppression(db, accountId, email))!)));
    },
  );
}

function removeSuppressionRoute(app: ServiceApp, { db }: RecipientRoutesOptions): void {
  app.delete(
    "/suppressions/:email",
    {
      schema: {
        summary: "Remove a bounce from the suppression list",
        description:
          "Mail to the address is accepted again (after a mailbox was fixed, say); another hard bounce suppresses it again. Only bounces (and manual entries) can be removed this way: an unsubscribe or a complaint is the recipient's decision, lifted only by the recipient's re-subscribe link or a new consent recorded with POST /suppressions/{email}/consent (409 otherwise).",
        params: S.EmailParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const accountId = request.subscriber.accountId;
      const email = emailParam(request.params.email);
      if (await deleteSenderSuppression(db, accountId, email)) return reply.code(204).send(null);
      const held = await findSuppression(db, accountId, email);
      if (!held) throw errors.notFound(`${request.params.email} is not suppressed.`);
      throw errors.conflict(
        `${email} is suppressed because the recipient ${held.reason === "complaint" ? "marked your mail as spam" : "unsubscribed"}: only the recipient can lift that (the re-subscribe link on the unsubscribe page), or a new consent recorded with POST /suppressions/${email}/consent naming its source and time.`,
        [{ field: "email", issue: `is suppressed by the recipient (${held.reason}), not by a bounce` }],
      );
    },
  );
}

function consentRoute(app: ServiceApp, { db, now }: RecipientRoutesOptions): void {
  app.post(
    "/suppressions/:email/consent",
    {
      schema: {
        summary: "Lift an unsubscribe or complaint with a new consent",
        description:
          "Records a consent the person gave after they unsubscribed or complained (where and when), lifts the suppression and puts the address on the opt-in list with that consent. A consent older than the suppression does not lift it.",
        params: S.EmailParams,
        body: S.ConsentBody,
        response: { 200: successSchema(S.ConsentRecord) },
      },
    },
    async (request) => {
      const accountId = request.subscriber.accountId;
      const email = emailParam(request.params.email);
      const held = await findSuppression(db, accountId, email);
      if (!held) throw errors.notFound(`${request.params.email} is not suppressed.`);
      if (!RECIPIENT_SUPPRESSIONS.includes(held.reason)) {
        const cause = held.reason === "manual" ? "your own manual entry" : "a hard bounce";
        throw errors.conflict(`${email} is suppressed by ${cause}, not by the recipient: remove it with DELETE /suppressions/${email}.`, [
          { field: "email", issue: `is suppressed by ${cause}, which needs no consent` },
        ]);
      }
      const consentedAt = new Date(request.body.consented_at);
      const at = now();
      if (consentedAt.getTime() > at.getTime() + 5 * 60_000) throw errors.validation("consented_at", "must not be in the future");
      if (consentedAt.getTime() <= held.created_at.getTime()) {
        throw errors.validation(
          "consented_at",
          `must be after the address was suppressed (${held.created_at.toISOString()}): a consent given before the ${held.reason === "complaint" ? "complaint" : "unsubscribe"} does not outlive it`,
        );
      }
      const source = request.body.source;
      const lifted = await liftWithConsent(db, accountId, email, { liftedBy: "sender", source, consentedAt, recordedAt: at });
      if (!lifted) throw errors.notFound(`${request.params.email} is not suppressed.`);
      await upsertContact(db, accountId, { email, consent_at: consentedAt, source, created_at: at });
      return ok({ email, lifted, source, consented_at: consentedAt.toISOString() });
    },
  );
}
