import { Type } from "typebox";
import { ALIAS_MAX_LENGTH, ALIAS_MIN_LENGTH, ALIAS_PATTERN } from "./domain/codes.js";
import { MAX_HOSTNAME_LENGTH } from "./domain/hostname.js";
import { MAX_URL_LENGTH } from "./domain/url.js";
import { MAX_WINDOW_DAYS } from "./domain/stats-window.js";

export const MAX_BULK_ITEMS = 100;
export const MAX_BULK_ITEMS_BASIC = 10;
const MAX_CLICK_LIMIT = 1_000_000_000;
const MAX_LIST_LIMIT = 100;
const DEFAULT_LIST_LIMIT = 20;

const UrlString = (description: string) => Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description });

export const LinkInputSchema = Type.Object(
  {
    url: UrlString("The destination: an absolute http or https URL, normalized before it is stored."),
    alias: Type.Optional(
      Type.String({
        minLength: ALIAS_MIN_LENGTH,
        maxLength: ALIAS_MAX_LENGTH,
        pattern: ALIAS_PATTERN,
        errorMessage: "must contain only letters, digits, - and _",
        description: "A custom code: letters, digits, - and _. Unique per domain regardless of letter case; redirects match it exactly.",
      }),
    ),
    expires_at: Type.Optional(Type.String({ minLength: 10, maxLength: 40, description: "ISO 8601 date-time in the future (at most 10 years ahead)." })),
    max_clicks: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CLICK_LIMIT, description: "Redirects allowed before the link stops." })),
    fallback_url: Type.Optional(UrlString("Where the link sends visitors once it expired, used up its clicks or was deleted.")),
    redirect_type: Type.Optional(Type.Union([Type.Literal(301), Type.Literal(302)], { description: "HTTP status of the redirect (default 302)." })),
    domain: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_HOSTNAME_LENGTH, description: "A verified custom domain of the account (PRO and above)." }),
    ),
  },
  { additionalProperties: false },
);

export const LinkPatchSchema = Type.Object(
  {
    url: Type.Optional(UrlString("A new destination.")),
    expires_at: Type.Optional(
      Type.Union([Type.String({ minLength: 10, maxLength: 40 }), Type.Null()], { description: "A new expiry in the future, or null for none." }),
    ),
    max_clicks: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: MAX_CLICK_LIMIT }), Type.Null()], { description: "A new click limit, or null for none." }),
    ),
    fallback_url: Type.Optional(Type.Union([UrlString("A new fallback URL."), Type.Null()])),
    redirect_type: Type.Optional(Type.Union([Type.Literal(301), Type.Literal(302)])),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const BulkBodySchema = Type.Object(
  {
    urls: Type.Array(Type.Unknown(), {
      minItems: 1,
      maxItems: MAX_BULK_ITEMS,
      description: `1 to ${MAX_BULK_ITEMS} items (${MAX_BULK_ITEMS_BASIC} on BASIC): URL strings or objects with the fields of /shorten.`,
    }),
  },
  { additionalProperties: false },
);

export const CodeParams = Type.Object({
  code: Type.String({ minLength: 1, maxLength: ALIAS_MAX_LENGTH, description: "The link's short code." }),
});

export const DomainQuery = Type.Object(
  {
    domain: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_HOSTNAME_LENGTH, description: "The link's custom domain (default: the service's own host)." }),
    ),
  },
  { additionalProperties: false },
);

export const StatsQuerySchema = Type.Object(
  {
    unique: Type.Boolean({ default: false, description: "true: breakdowns and time series count distinct visitors instead of hits." }),
    from: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: "First UTC day of the window, YYYY-MM-DD (default: the link's creation day)." }),
    ),
    to: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        description: `Last UTC day of the window, YYYY-MM-DD (default: today); at most ${MAX_WINDOW_DAYS} days in all.`,
      }),
    ),
    domain: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_HOSTNAME_LENGTH })),
  },
  { additionalProperties: false },
);

export const ListQuerySchema = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT, default: DEFAULT_LIST_LIMIT }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "next_cursor of the previous page." })),
    include_deleted: Type.Boolean({ default: false }),
  },
  { additionalProperties: false },
);

export const SettingsBodySchema = Type.Object(
  {
    fallback_url: Type.Union([UrlString("Where inactive links of the account send visitors; null removes it."), Type.Null()]),
  },
  { additionalProperties: false },
);

export const DomainBodySchema = Type.Object(
  { domain: Type.String({ minLength: 1, maxLength: MAX_HOSTNAME_LENGTH, description: "A host name such as go.example.com." }) },
  { additionalProperties: false },
);

export const DomainParams = Type.Object({ domain: Type.String({ minLength: 1, maxLength: MAX_HOSTNAME_LENGTH }) });

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const LinkSchema = Type.Object({
  code: Type.String(),
  short_url: Type.String(),
  url: Type.String(),
  domain: Type.String(),
  state: Type.Union([Type.Literal("active"), Type.Literal("expired"), Type.Literal("click_limit_reached"), Type.Literal("deleted")]),
  redirect_type: Type.Integer(),
  fallback_url: Nullable(Type.String()),
  expires_at: Nullable(Type.String()),
  max_clicks: Nullable(Type.Integer()),
  clicks: Type.Integer({ description: "Redirects served so far (bots included); what max_clicks counts." }),
  created_at: Type.String(),
  deleted_at: Nullable(Type.String()),
});

export const SummarySchema = Type.Object({
  total_hits: Type.Integer(),
  unique_visitors: Type.Integer(),
  bot_hits: Type.Integer(),
  last_clicked_at: Nullable(Type.String()),
});

const Breakdown = Type.Array(Type.Object({ value: Type.String(), count: Type.Integer() }));

export const StatsSchema = Type.Object({
  code: Type.String(),
  domain: Type.String(),
  unique: Type.Boolean(),
  from: Type.String(),
  to: Type.String(),
  total_hits: Type.Integer(),
  unique_visitors: Type.Integer(),
  bot_hits: Type.Integer(),
  referrers: Breakdown,
  countries: Breakdown,
  device_types: Breakdown,
  browsers: Breakdown,
  operating_systems: Breakdown,
  time_series: Type.Array(Type.Object({ date: Type.String(), count: Type.Integer() })),
});

export const DomainSchema = Type.Object({
  domain: Type.String(),
  status: Type.Union([Type.Literal("verified"), Type.Literal("pending")]),
  cname_target: Type.String(),
  verified_at: Nullable(Type.String()),
  last_checked_at: Nullable(Type.String()),
  last_check_error: Nullable(Type.String()),
  created_at: Type.String(),
});
