import { Type, type Static, type TObject } from "typebox";
import { LIMITS } from "./domain/limits.js";

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const;

const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
const Uuid = Type.String({ pattern: UUID_PATTERN, description: "a UUID" });

export const InboxParams = Type.Object({ id: Uuid });
export const RequestParams = Type.Object({ id: Uuid, request_id: Uuid });

/**
 * An object or null, as one JSON Schema type list rather than a union, so that a bad field inside
 * the object is reported alone instead of with a "must be null" from the other branch.
 */
function nullable<T extends TObject>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: ["object", "null"] });
}

export const DefaultResponse = Type.Object(
  {
    status: Type.Integer({ minimum: 200, maximum: 599, description: "HTTP status answered to senders" }),
    body: Type.Optional(Type.String({ maxLength: LIMITS.defaultResponseBodyChars, description: 'default ""' })),
    content_type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: LIMITS.contentTypeChars,
        // Printable ASCII only: a header value cannot carry control characters.
        pattern: "^[\\x20-\\x7E]+$",
        description: 'default "text/plain; charset=utf-8"',
      }),
    ),
  },
  { additionalProperties: false },
);

const BasicAuth = Type.Object(
  {
    username: Type.String({
      minLength: 1,
      maxLength: LIMITS.credentialChars,
      pattern: "^[^:]*$",
      errorMessage: "must not contain a colon (:), which separates the user name from the password in Basic auth",
    }),
    password: Type.String({ minLength: 1, maxLength: LIMITS.credentialChars }),
  },
  { additionalProperties: false },
);

const InboxSettingsFields = {
  default_response: Type.Optional(nullable(DefaultResponse)),
  cors: Type.Optional(Type.Boolean({ description: "default true" })),
  basic_auth: Type.Optional(nullable(BasicAuth)),
  ip_allowlist: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: LIMITS.allowlistEntries, description: "IP addresses or CIDR ranges" }),
  ),
};

export const CreateInboxBody = Type.Object(InboxSettingsFields, { additionalProperties: false });
// An empty change is a mistake, answered as every service answers it (docs/DEVELOPING.md, "One mistake, one answer").
export const UpdateInboxBody = Type.Object(InboxSettingsFields, { additionalProperties: false, minProperties: 1 });
export type InboxSettingsInput = Static<typeof UpdateInboxBody>;

export const PageQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: LIMITS.pageSizeMax, default: LIMITS.pageSizeDefault }),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});

export const RequestListQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: LIMITS.pageSizeMax, default: LIMITS.pageSizeDefault }),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  method: Type.Optional(Type.Union(HTTP_METHODS.map((m) => Type.Literal(m)))),
  since: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: "ISO 8601 date-time, inclusive" })),
  until: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: "ISO 8601 date-time, exclusive" })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.searchChars, description: "text in the body or a header value" })),
});
export type RequestListQueryInput = Static<typeof RequestListQuery>;

export const StreamQuery = Type.Object({
  last_event_id: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
});

export const ForwardBody = Type.Object(
  {
    url: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: LIMITS.urlChars }), Type.Null()])),
    rotate_secret: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const ReplayBody = Type.Object({ url: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.urlChars })) }, { additionalProperties: false });

/** For routes whose body is optional: no body at all is validated as {}. */
export async function emptyBodyAsObject(request: { body: unknown }): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}

/** An inbox as its owner sees it (views.ts ownerInboxView): the answer of POST /create. */
export const OwnerInboxSchema = Type.Object({
  id: Type.String({ description: "the inbox id (a UUID)" }),
  hook_url: Type.String({ description: "where senders send their webhooks" }),
  created_at: Type.String({ format: "date-time" }),
  expires_at: Type.String({ format: "date-time" }),
  default_response: Type.Union([Type.Object({ status: Type.Integer(), body: Type.String(), content_type: Type.String() }), Type.Null()]),
  cors: Type.Boolean(),
  private: Type.Boolean(),
  basic_auth: Type.Union([Type.Object({ username: Type.String() }), Type.Null()]),
  ip_allowlist: Type.Array(Type.String()),
  forward_url: Type.Union([Type.String(), Type.Null()]),
  max_requests: Type.Integer(),
  max_stored_bytes: Type.Integer(),
});

/*
 * The answers below are declared for /openapi.json and for the conformance suite, which checks every recorded answer
 * against them; the routes still serialize with JSON.stringify (see documentedOnly), so nothing a client receives
 * changes with them.
 */
const Instant = Type.String({ format: "date-time" });
const NullableInstant = Type.Union([Instant, Type.Null()]);

/** An inbox as a reader who is not its owner sees it (views.ts publicInboxView). */
const PublicInboxSchema = Type.Object(
  { id: Type.String(), hook_url: Type.String(), created_at: Instant, expires_at: Instant },
  { additionalProperties: false },
);

const StrictOwnerInbox = Type.Object(OwnerInboxSchema.properties, { additionalProperties: false });

const CaptureFields = {
  id: Type.String(),
  inbox_id: Type.String(),
  received_at: Instant,
  method: Type.String(),
  path: Type.String(),
  query: Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]), {
    description: "the query string parsed; a repeated name gives an array",
  }),
  query_string: Type.String(),
  headers: Type.Array(Type.Object({ name: Type.String(), value: Type.String() }, { additionalProperties: false }), { description: "in the order received" }),
  content_type: Type.Union([Type.String(), Type.Null()]),
  body_size: Type.Integer(),
  body: Type.Union([Type.String(), Type.Null()], { description: "text, or base64 when body_encoding says so; null when the body was not kept" }),
  body_encoding: Type.Union([Type.Literal("text"), Type.Literal("base64"), Type.Null()]),
  body_omitted: Type.Boolean(),
  source_ip: Type.String(),
};

const Forwarding = Type.Union([
  Type.Object(
    { state: Type.String(), url: Type.Union([Type.String(), Type.Null()]), attempts: Type.Integer(), next_attempt_at: NullableInstant },
    { additionalProperties: false },
  ),
  Type.Null(),
]);

/** What a forwarding or a replay sent, and what came back. */
const AttemptOutcomeFields = {
  url: Type.String(),
  started_at: Instant,
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  latency_ms: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  response_body: Type.Union([Type.String(), Type.Null()]),
};

const Attempt = Type.Object(
  { kind: Type.String(), attempt: Type.Integer(), ...AttemptOutcomeFields, next_attempt_at: NullableInstant },
  { additionalProperties: false },
);

/** A capture in a list: the owner sees its forwarding too. */
const ListedCapture = Type.Union([
  Type.Object({ ...CaptureFields, forwarding: Forwarding }, { additionalProperties: false }),
  Type.Object(CaptureFields, { additionalProperties: false }),
]);

export const InboxListSchema = Type.Object(
  { inboxes: Type.Array(StrictOwnerInbox), next_cursor: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);
export const InboxWithRequestsSchema = Type.Object(
  { inbox: Type.Union([StrictOwnerInbox, PublicInboxSchema]), requests: Type.Array(ListedCapture), next_cursor: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);
export const UpdatedInboxSchema = StrictOwnerInbox;
export const DeletedInboxSchema = Type.Object({ id: Type.String(), deleted: Type.Literal(true) }, { additionalProperties: false });
export const CaptureSchema = Type.Union([
  Type.Object({ ...CaptureFields, forwarding: Forwarding, attempts: Type.Array(Attempt) }, { additionalProperties: false }),
  Type.Object(CaptureFields, { additionalProperties: false }),
]);
export const ForwardingSchema = Type.Object(
  { inbox_id: Type.String(), url: Type.Union([Type.String(), Type.Null()]), signing_secret: Type.String(), previous_secret_expires_at: NullableInstant },
  { additionalProperties: false },
);
export const ReplaySchema = Type.Object(
  {
    request_id: Type.String(),
    replay: Type.Integer({ description: "the replay's number for this capture" }),
    ...AttemptOutcomeFields,
  },
  { additionalProperties: false },
);
export const CaptureReceiptSchema = Type.Object({ inbox_id: Type.String(), request_id: Type.String() }, { additionalProperties: false });
