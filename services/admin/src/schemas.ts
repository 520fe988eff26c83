import { Type } from "typebox";
import { PLAN_NAMES, SERVICE_NAMES, type PlanName } from "@apiplat/config";

export const Uuid = Type.String({ format: "uuid" });
const Month = Type.String({ pattern: "^\\d{4}-(0[1-9]|1[0-2])$", description: "UTC month, YYYY-MM", errorMessage: "must be YYYY-MM, e.g. 2026-11" });

export const AccountParams = Type.Object({ id: Uuid });
export const KeyParams = Type.Object({ key_id: Uuid });
export const SubscriptionParams = Type.Object({
  id: Uuid,
  service: Type.Union(
    [...SERVICE_NAMES, "*"].map((s) => Type.Literal(s)),
    { description: "a deployed service's name, or * for every deployed service" },
  ),
});
export const CreateAccountBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });
export const SubscribeBody = Type.Object({ plan: Type.Union(PLAN_NAMES.map((p) => Type.Literal(p))) });
export const AccountMonthQuery = Type.Object({ account_id: Uuid, month: Type.Optional(Month) });

/*
 * The answers, declared for /openapi.json and checked by the conformance suite against the recorded examples; the
 * routes serialize with JSON.stringify (serializeAsWritten), so these schemas change nothing a client receives.
 */
const Instant = Type.String({ format: "date-time" });
const Plan = Type.Unsafe<PlanName>(Type.Union(PLAN_NAMES.map((p) => Type.Literal(p))));
const strict = { additionalProperties: false } as const;

const AccountSchema = Type.Object({ id: Uuid, name: Type.String(), external_id: Type.Union([Type.String(), Type.Null()]), created_at: Instant }, strict);
export const CreatedAccountSchema = Type.Object({ id: Uuid, name: Type.String(), created_at: Instant }, strict);
const Subscription = Type.Object({ account_id: Uuid, service: Type.String(), plan: Plan, updated_at: Instant }, strict);
export const KeySchema = Type.Object(
  {
    id: Uuid,
    account_id: Uuid,
    key_prefix: Type.String({ description: "the first characters of the key, to recognise it" }),
    status: Type.Union([Type.Literal("active"), Type.Literal("revoked")]),
    created_at: Instant,
    revoked_at: Type.Union([Instant, Type.Null()]),
  },
  strict,
);
export const AccountListSchema = Type.Object({ accounts: Type.Array(AccountSchema) }, strict);
export const AccountDetailSchema = Type.Object({ ...AccountSchema.properties, subscriptions: Type.Array(Subscription), keys: Type.Array(KeySchema) }, strict);
export const SubscriptionsSchema = Type.Object({ subscriptions: Type.Array(Subscription) }, strict);
export const NewKeySchema = Type.Object(
  {
    id: Uuid,
    key: Type.String({ description: "the API key itself: shown this once, never again" }),
    key_prefix: Type.String(),
    account_id: Uuid,
    created_at: Instant,
  },
  strict,
);
export const UsageSchema = Type.Object(
  {
    account_id: Uuid,
    month: Type.String(),
    services: Type.Array(
      Type.Object(
        {
          service: Type.String(),
          plan: Type.Union([Plan, Type.Null()]),
          requests: Type.Integer(),
          included: Type.Integer(),
          overage: Type.Integer(),
          endpoints: Type.Array(Type.Object({ endpoint: Type.String(), requests: Type.Integer() }, strict)),
        },
        strict,
      ),
    ),
  },
  strict,
);
const Money = Type.String({ description: "US dollars, as a decimal string" });
export const InvoiceSchema = Type.Object(
  {
    account_id: Uuid,
    month: Type.String(),
    currency: Type.Literal("USD"),
    lines: Type.Array(
      Type.Object(
        {
          service: Type.String(),
          plan: Plan,
          price: Money,
          included_requests: Type.Integer(),
          requests: Type.Integer(),
          overage_requests: Type.Integer(),
          overage_rate: Money,
          overage_amount: Money,
          total: Money,
        },
        strict,
      ),
    ),
    total: Money,
  },
  strict,
);
