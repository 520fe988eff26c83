import { Type, type Static } from "typebox";
import { ADDRESS_MAX_LENGTH } from "./domain/addresses.js";
import {
  HTML_MAX_LENGTH,
  MAX_ATTACHMENTS,
  MAX_METADATA_KEYS,
  MAX_RECIPIENTS,
  MAX_TAGS,
  METADATA_VALUE_MAX_LENGTH,
  SUBJECT_MAX_LENGTH,
  TAG_PATTERN,
} from "./domain/message.js";
import { STATUSES, WEBHOOK_EVENT_TYPES } from "./domain/status.js";
import { TEMPLATE_NAME_PATTERN, TEMPLATE_PART_MAX_LENGTH } from "./domain/templates.js";

/** A saved template version (a PostgreSQL integer): larger numbers name no version and are refused as out of range. */
const TemplateVersion = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: "a saved version; default the newest" });

const Address = Type.String({ minLength: 3, maxLength: ADDRESS_MAX_LENGTH + 210, description: "`a@example.com` or `Name <a@example.com>`" });
const AddressList = (description: string) => Type.Union([Address, Type.Array(Address, { maxItems: MAX_RECIPIENTS + 1 })], { description });

const Attachment = Type.Object(
  {
    filename: Type.String({ minLength: 1, maxLength: 255 }),
    content: Type.String({ description: "the file, base64-encoded" }),
    content_type: Type.Optional(
      Type.String({ pattern: "^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+$", maxLength: 255, description: "default application/octet-stream" }),
    ),
    content_id: Type.Optional(Type.String({ pattern: "^[A-Za-z0-9._@-]{1,200}$", description: "makes it an inline image, referenced as cid:<content_id>" })),
  },
  { additionalProperties: false },
);

/** Everything of a message but its content. */
const envelopeFields = {
  to: AddressList(`one address or a list; at most ${MAX_RECIPIENTS} recipients across to, cc and bcc`),
  cc: Type.Optional(AddressList("carbon copies")),
  bcc: Type.Optional(AddressList("blind carbon copies")),
  from: Type.Optional(
    Type.String({ maxLength: ADDRESS_MAX_LENGTH + 210, description: "on a verified sending domain of the account; default EMAIL_DEFAULT_FROM" }),
  ),
  reply_to: Type.Optional(AddressList("Reply-To addresses")),
  headers: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description: "custom headers; From, To, DKIM-Signature, List-Unsubscribe and the other headers the service writes are refused",
    }),
  ),
  tags: Type.Optional(Type.Array(Type.String({ pattern: TAG_PATTERN }), { maxItems: MAX_TAGS, description: `up to ${MAX_TAGS} tags for filtering` })),
  metadata: Type.Optional(
    Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: METADATA_VALUE_MAX_LENGTH }), {
      maxProperties: MAX_METADATA_KEYS,
      description: `up to ${MAX_METADATA_KEYS} string values, echoed in webhooks`,
    }),
  ),
  attachments: Type.Optional(Type.Array(Attachment, { maxItems: MAX_ATTACHMENTS, description: "combined decoded size at most 25 MB" })),
  track_opens: Type.Optional(Type.Boolean({ description: "default false" })),
  track_clicks: Type.Optional(Type.Boolean({ description: "default false" })),
  category: Type.Optional(Type.Union([Type.Literal("transactional"), Type.Literal("marketing")], { description: "default transactional" })),
  send_at: Type.Optional(Type.String({ format: "date-time", description: "schedule up to 72 hours ahead; cancellable until sent" })),
};

export const SendBody = Type.Object(
  {
    ...envelopeFields,
    subject: Type.String({ minLength: 1, maxLength: SUBJECT_MAX_LENGTH }),
    html: Type.Optional(Type.String({ minLength: 1, maxLength: HTML_MAX_LENGTH, description: "the HTML body" })),
    body: Type.Optional(Type.String({ minLength: 1, maxLength: HTML_MAX_LENGTH, description: "the HTML body under the spec's name (give html or body)" })),
    text: Type.Optional(Type.String({ maxLength: HTML_MAX_LENGTH, description: "plain-text part; derived from the HTML when absent" })),
  },
  {
    additionalProperties: false,
    examples: [{ to: "ada@example.com", subject: "Your receipt", html: "<p>Thanks for your order.</p>", tags: ["receipt"] }],
  },
);
export type SendBody = Static<typeof SendBody>;

export const BatchBody = Type.Object(
  { messages: Type.Array(SendBody, { minItems: 1, maxItems: 100, description: "1 to 100 messages" }) },
  { additionalProperties: false },
);

/** Content keys of POST /send that /send/template refuses (the spec: no inline HTML). */
export const INLINE_CONTENT_FIELDS = ["subject", "html", "body", "text"] as const;

export const TemplateSendBody = Type.Object(
  {
    ...envelopeFields,
    template: Type.String({ pattern: TEMPLATE_NAME_PATTERN, description: "name of a saved template" }),
    version: Type.Optional(TemplateVersion),
    variables: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "values for the template's variables" })),
    // Named so that they are refused with a 400 instead of being dropped: the content comes from the template.
    ...Object.fromEntries(
      INLINE_CONTENT_FIELDS.map((field) => [field, Type.Optional(Type.Unknown({ description: "not accepted: the template gives the content" }))]),
    ),
  },
  { additionalProperties: false },
);
export type TemplateSendBody = Static<typeof TemplateSendBody>;

const Rejected = Type.Object({ email: Type.String(), reason: Type.String() });

/** The delivery lane a message waits in: ULTRA and MEGA accounts' messages are claimed first. */
const Lane = Type.Union([Type.Literal("priority"), Type.Literal("standard")], {
  description: "priority: the account's plan (ULTRA or higher) puts its messages ahead of standard ones in the delivery queue",
});

export const Accepted = Type.Object({
  id: Type.String({ description: "msg_ followed by 24 hex characters" }),
  status: Type.Union([Type.Literal("queued"), Type.Literal("scheduled")]),
  to: Type.Array(Type.String()),
  submitted_at: Type.String({ format: "date-time" }),
  send_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  rejected: Type.Array(Rejected, { description: "recipients refused (suppressed, not opted in) while the others were accepted" }),
  lane: Lane,
});

export const BatchResult = Type.Object({
  results: Type.Array(
    Type.Union([
      Type.Object({ index: Type.Integer(), status: Type.Literal("accepted"), message: Accepted }),
      Type.Object({
        index: Type.Integer(),
        status: Type.Literal("error"),
        error: Type.Object({
          code: Type.String(),
          message: Type.String(),
          details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), issue: Type.String() }))),
        }),
      }),
    ]),
  ),
  accepted: Type.Integer(),
  failed: Type.Integer(),
});

const MailboxView = Type.String();
export const Event = Type.Object({
  id: Type.String(),
  type: Type.String(),
  at: Type.String({ format: "date-time" }),
  recipient: Type.Union([Type.String(), Type.Null()]),
  detail: Type.Record(Type.String(), Type.Unknown()),
});

export const MessageSummary = Type.Object({
  id: Type.String(),
  status: Type.Union(STATUSES.map((s) => Type.Literal(s))),
  category: Type.String(),
  from: MailboxView,
  to: Type.Array(MailboxView),
  cc: Type.Array(MailboxView),
  bcc: Type.Array(MailboxView),
  subject: Type.String(),
  tags: Type.Array(Type.String()),
  metadata: Type.Record(Type.String(), Type.String()),
  template: Type.Union([Type.Object({ name: Type.String(), version: Type.Integer() }), Type.Null()]),
  submitted_at: Type.String({ format: "date-time" }),
  send_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  sent_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  attempts: Type.Integer(),
  next_attempt_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  lane: Lane,
});
export const MessageDetail = Type.Object({ ...MessageSummary.properties, events: Type.Array(Event) });

export const MessageList = Type.Object({ messages: Type.Array(MessageSummary), next_cursor: Type.Union([Type.String(), Type.Null()]) });

export const MessageQuery = Type.Object(
  {
    status: Type.Optional(Type.Union(STATUSES.map((s) => Type.Literal(s)))),
    tag: Type.Optional(Type.String({ pattern: TAG_PATTERN })),
    recipient: Type.Optional(Type.String({ maxLength: ADDRESS_MAX_LENGTH })),
    submitted_after: Type.Optional(Type.String({ format: "date-time" })),
    submitted_before: Type.Optional(Type.String({ format: "date-time" })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);

export const MessageParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const DomainBody = Type.Object({ domain: Type.String({ minLength: 3, maxLength: 253 }) }, { additionalProperties: false });
export const DomainParams = Type.Object({ domain: Type.String({ maxLength: 253 }) });
export const DnsRecord = Type.Object({
  purpose: Type.String(),
  type: Type.String(),
  name: Type.String(),
  value: Type.String(),
  verified: Type.Boolean(),
});
export const Domain = Type.Object({
  domain: Type.String(),
  status: Type.Union([Type.Literal("pending"), Type.Literal("verified")]),
  dkim_selector: Type.String(),
  records: Type.Array(DnsRecord),
  created_at: Type.String({ format: "date-time" }),
  verified_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  last_checked_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
});

const TemplatePart = (description: string) => Type.String({ maxLength: TEMPLATE_PART_MAX_LENGTH, description });
export const TemplateBody = Type.Object(
  {
    name: Type.String({ pattern: TEMPLATE_NAME_PATTERN, description: "lower-case letters, digits, - and _; 1 to 64 characters" }),
    subject: Type.String({ minLength: 1, maxLength: SUBJECT_MAX_LENGTH, description: "Mustache" }),
    html: TemplatePart("Mustache; {{x}} is HTML-escaped, {{{x}}} and {{& x}} are raw"),
    text: Type.Optional(TemplatePart("Mustache; derived from the rendered HTML when absent")),
  },
  { additionalProperties: false, examples: [{ name: "welcome", subject: "Welcome, {{name}}", html: "<p>Hello {{name}}!</p>" }] },
);
export const TemplateUpdate = Type.Object(
  { subject: TemplateBody.properties.subject, html: TemplateBody.properties.html, text: Type.Optional(TemplateBody.properties.text) },
  { additionalProperties: false },
);
export const TemplateParams = Type.Object({ name: Type.String({ maxLength: 64 }) });
export const TemplateQuery = Type.Object({ version: Type.Optional(TemplateVersion) }, { additionalProperties: false });
export const Template = Type.Object({
  name: Type.String(),
  version: Type.Integer(),
  subject: Type.String(),
  html: Type.String(),
  text: Type.Union([Type.String(), Type.Null()]),
  variables: Type.Array(Type.String(), { description: "variables the template requires" }),
  created_at: Type.String({ format: "date-time" }),
  updated_at: Type.String({ format: "date-time" }),
});
export const RenderBody = Type.Object(
  { variables: Type.Optional(Type.Record(Type.String(), Type.Unknown())), version: Type.Optional(TemplateVersion) },
  { additionalProperties: false },
);
export const Rendered = Type.Object({ subject: Type.String(), html: Type.String(), text: Type.String() });

export const ContactBody = Type.Object(
  {
    email: Type.String({ maxLength: ADDRESS_MAX_LENGTH }),
    consent_at: Type.String({ format: "date-time", description: "when the person gave consent" }),
    source: Type.String({ minLength: 1, maxLength: 200, description: "where consent was given (a form, an import)" }),
  },
  { additionalProperties: false },
);
export const Contact = Type.Object({
  email: Type.String(),
  consent_at: Type.String({ format: "date-time" }),
  source: Type.String(),
  created_at: Type.String({ format: "date-time" }),
});
export const EmailParams = Type.Object({ email: Type.String({ maxLength: ADDRESS_MAX_LENGTH }) });
export const PageQuery = Type.Object(
  { after: Type.Optional(Type.String({ maxLength: ADDRESS_MAX_LENGTH })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })) },
  { additionalProperties: false },
);
export const SuppressionQuery = Type.Object(
  {
    after: Type.Optional(Type.String({ maxLength: ADDRESS_MAX_LENGTH })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
    reason: Type.Optional(Type.Union([Type.Literal("hard_bounce"), Type.Literal("complaint"), Type.Literal("unsubscribed"), Type.Literal("manual")])),
  },
  { additionalProperties: false },
);
export const SuppressionBody = Type.Object({ email: Type.String({ maxLength: ADDRESS_MAX_LENGTH }) }, { additionalProperties: false });
export const ConsentBody = Type.Object(
  {
    source: Type.String({ minLength: 1, maxLength: 200, description: "where the new consent was given (a signup form, a double opt-in confirmation)" }),
    consented_at: Type.String({ format: "date-time", description: "when the person gave it: after the address was suppressed" }),
  },
  { additionalProperties: false },
);
export const ConsentRecord = Type.Object({
  email: Type.String(),
  lifted: Type.String({ description: "the suppression the consent lifted: unsubscribed or complaint" }),
  source: Type.String(),
  consented_at: Type.String({ format: "date-time" }),
});
export const Suppression = Type.Object({
  email: Type.String(),
  reason: Type.String(),
  detail: Type.String(),
  message_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: "date-time" }),
});

export const WebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 8, maxLength: 2048, description: "http(s) URL the events are POSTed to" }),
    event_types: Type.Array(Type.Union(WEBHOOK_EVENT_TYPES.map((t) => Type.Literal(t))), { minItems: 1, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export const Webhook = Type.Object({
  id: Type.String(),
  url: Type.String(),
  event_types: Type.Array(Type.String()),
  signing_secret: Type.String({ description: "Standard Webhooks secret (whsec_...)" }),
  created_at: Type.String({ format: "date-time" }),
});
export const WebhookDetail = Type.Object({
  ...Webhook.properties,
  recent_deliveries: Type.Array(
    Type.Object({
      id: Type.String(),
      state: Type.String(),
      attempts: Type.Integer(),
      last_status: Type.Union([Type.Integer(), Type.Null()]),
      last_error: Type.Union([Type.String(), Type.Null()]),
      next_attempt_at: Type.String({ format: "date-time" }),
      created_at: Type.String({ format: "date-time" }),
    }),
  ),
});
export const WebhookParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const WildcardToken = Type.Object({ "*": Type.String({ maxLength: 8192, description: "a signed token" }) });
