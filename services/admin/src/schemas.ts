import { Type } from "typebox";
import { PLAN_NAMES, SERVICE_NAMES } from "@apiplat/config";

export const Uuid = Type.String({ format: "uuid" });
export const Month = Type.String({ pattern: "^\\d{4}-(0[1-9]|1[0-2])$", description: "UTC month, YYYY-MM", errorMessage: "must be YYYY-MM, e.g. 2026-11" });

export const AccountParams = Type.Object({ id: Uuid });
export const KeyParams = Type.Object({ key_id: Uuid });
export const SubscriptionParams = Type.Object({
  id: Uuid,
  service: Type.Union([...SERVICE_NAMES, "*"].map((s) => Type.Literal(s)), { description: "a deployed service's name, or * for every deployed service" }),
});
export const CreateAccountBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });
export const SubscribeBody = Type.Object({ plan: Type.Union(PLAN_NAMES.map((p) => Type.Literal(p))) });
export const AccountMonthQuery = Type.Object({ account_id: Uuid, month: Type.Optional(Month) });
