import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { ServiceName } from "@apiplat/config";
import { errors, ok } from "@apiplat/errors";
import { serializeAsWritten, successSchema, type ServiceApp } from "@apiplat/service-kit";
import { announceGrantChange, type Account, type AccountStore, type GrantChange } from "@apiplat/gateway-auth";
import { invoice, monthOf, usageReport } from "@apiplat/metering";
import type { Database, KeyValueStore } from "@apiplat/storage";
import {
  AccountDetailSchema,
  AccountListSchema,
  AccountMonthQuery,
  AccountParams,
  CreateAccountBody,
  CreatedAccountSchema,
  InvoiceSchema,
  KeyParams,
  KeySchema,
  NewKeySchema,
  SubscribeBody,
  SubscriptionParams,
  SubscriptionsSchema,
  UsageSchema,
} from "../schemas.js";

export interface AdminRoutesOptions {
  accounts: AccountStore;
  db: Database;
  /** Where key revocations and plan changes are announced to the services (see announceGrantChange). */
  kv: KeyValueStore;
  now: () => Date;
  /** The deployed services: "*" means these, and invoices bill only these. */
  deployed: readonly ServiceName[];
}

/** What the admin routes share: the stores, and the checks every route makes of an account or a service. */
interface AdminContext {
  accounts: AccountStore;
  db: Database;
  now: () => Date;
  /** The deployed services' names, for invoices. */
  billable: ReadonlySet<string>;
  announce: (change: GrantChange) => Promise<unknown>;
  servicesNamed: (service: ServiceName | "*") => readonly ServiceName[];
  existingAccount: (id: string) => Promise<Account>;
}

export const adminRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, { accounts, db, kv, now, deployed }) => {
  app.setSerializerCompiler(serializeAsWritten);
  const billable = new Set<string>(deployed);
  const context: AdminContext = {
    accounts,
    db,
    now,
    billable,
    // The change is in the database already; a lost announcement only delays it to the services' key cache lifetime.
    announce: (change) => announceGrantChange(kv, change).catch((error) => app.log.warn({ err: error, change }, "announcing a key or plan change failed")),
    servicesNamed: (service) => {
      if (service === "*") return deployed;
      if (!billable.has(service)) throw errors.validation("service", `is not deployed on this platform; deployed: ${deployed.join(", ")}`);
      return [service];
    },
    existingAccount: async (id) => {
      const account = await accounts.getAccount(id);
      if (!account) throw errors.notFound(`There is no account ${id}.`);
      return account;
    },
  };
  accountRoutes(app, context);
  keyRoutes(app, context);
  billingRoutes(app, context);
};

/** Accounts and their subscriptions. */
function accountRoutes(app: ServiceApp, { accounts, announce, servicesNamed, existingAccount }: AdminContext): void {
  app.post(
    "/admin/accounts",
    { schema: { summary: "Create an account", body: CreateAccountBody, response: { 201: successSchema(CreatedAccountSchema) } } },
    async (request, reply) => {
      const account = await accounts.createAccount(request.body.name);
      return reply.status(201).send(ok({ id: account.id, name: account.name, created_at: account.created_at }));
    },
  );

  app.get("/admin/accounts", { schema: { summary: "List every account", response: { 200: successSchema(AccountListSchema) } } }, async () =>
    ok({ accounts: await accounts.listAccounts() }),
  );

  app.get(
    "/admin/accounts/:id",
    { schema: { summary: "An account with its subscriptions and keys", params: AccountParams, response: { 200: successSchema(AccountDetailSchema) } } },
    async (request) => {
      const account = await existingAccount(request.params.id);
      return ok({
        ...account,
        subscriptions: await accounts.listSubscriptions(account.id),
        keys: await accounts.listKeys(account.id),
      });
    },
  );

  app.put(
    "/admin/accounts/:id/subscriptions/:service",
    {
      schema: {
        summary: "Subscribe an account to a service (or every deployed one, *) on a plan",
        params: SubscriptionParams,
        body: SubscribeBody,
        response: { 200: successSchema(SubscriptionsSchema) },
      },
    },
    async (request) => {
      const account = await existingAccount(request.params.id);
      const services = servicesNamed(request.params.service);
      const subscriptions = await accounts.subscribe(account.id, services, request.body.plan);
      await announce({ accountId: account.id });
      return ok({ subscriptions });
    },
  );
}

/** API keys: made for an account, revoked. */
function keyRoutes(app: ServiceApp, { accounts, announce, existingAccount }: AdminContext): void {
  app.post(
    "/admin/accounts/:id/keys",
    { schema: { summary: "Make an API key for an account (the key is shown once)", params: AccountParams, response: { 201: successSchema(NewKeySchema) } } },
    async (request, reply) => {
      const account = await existingAccount(request.params.id);
      const { record, key } = await accounts.createKey(account.id);
      return reply.status(201).send(ok({ id: record.id, key, key_prefix: record.key_prefix, account_id: account.id, created_at: record.created_at }));
    },
  );

  app.delete(
    "/admin/keys/:key_id",
    { schema: { summary: "Revoke an API key", params: KeyParams, response: { 200: successSchema(KeySchema) } } },
    async (request) => {
      const key = await accounts.revokeKey(request.params.key_id);
      if (!key) throw errors.notFound(`There is no key ${request.params.key_id}.`);
      await announce({ keyId: key.id });
      return ok(key);
    },
  );
}

/** An account's usage and invoice for a month. */
function billingRoutes(app: ServiceApp, { db, now, billable, existingAccount }: AdminContext): void {
  app.get(
    "/admin/usage",
    {
      schema: {
        summary: "An account's requests in a month, by service and endpoint",
        querystring: AccountMonthQuery,
        response: { 200: successSchema(UsageSchema) },
      },
    },
    async (request) => {
      const account = await existingAccount(request.query.account_id);
      const month = request.query.month ?? monthOf(now());
      return ok({ account_id: account.id, month, services: await usageReport(db, account.id, month) });
    },
  );

  app.get(
    "/admin/invoices",
    { schema: { summary: "An account's invoice for a month", querystring: AccountMonthQuery, response: { 200: successSchema(InvoiceSchema) } } },
    async (request) => {
      const account = await existingAccount(request.query.account_id);
      return ok(await invoice(db, account.id, request.query.month ?? monthOf(now()), billable));
    },
  );
}
