import { pageInfoFields, pageQueryFields } from "@apiplat/catalogue";
import { Type, type Static } from "typebox";

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer> | ReturnType<typeof Type.Number>>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const VideoParams = Type.Object({
  id: Type.String({ pattern: "^[A-Za-z0-9_-]{11}$", description: "a YouTube video id: 11 letters, digits, - or _" }),
});
export const ChannelParams = Type.Object({
  id: Type.String({ pattern: "^ch_[0-9a-f]{16}$", description: "ch_ and 16 hex digits (see the README: derived from the channel title)" }),
});

const Metrics = Type.Object({
  as_of: Nullable(Type.String({ description: "the trending day of the snapshot (YYYY-MM-DD)" })),
  views: Nullable(Type.Integer()),
  likes: Nullable(Type.Integer()),
  dislikes: Nullable(Type.Integer()),
  comments: Nullable(Type.Integer()),
});

const AnalyticsSummary = Type.Object({
  engagement_rate: Nullable(Type.Number({ description: "(likes + comments) / views at the latest snapshot" })),
  views_gained_per_day: Nullable(Type.Number({ description: "views gained per day between the first and the latest snapshot" })),
  days_trending: Nullable(Type.Integer()),
  countries: Type.Array(Type.String()),
  peak_rank: Nullable(Type.Integer({ description: "best position in a day's trending list (full files only)" })),
});

export const VideoSummary = Type.Object({
  id: Type.String(),
  title: Type.String(),
  channel: Type.Union([Type.Object({ id: Type.String(), title: Type.String() }), Type.Null()]),
  category: Type.Union([Type.Object({ id: Type.Integer(), name: Nullable(Type.String()) }), Type.Null()]),
  published_at: Nullable(Type.String({ format: "date-time" })),
  thumbnail_url: Nullable(Type.String()),
  metrics: Metrics,
  analytics: AnalyticsSummary,
});
export type VideoSummary = Static<typeof VideoSummary>;

const SnapshotView = Type.Object({
  country: Type.String(),
  trending_date: Type.String(),
  views: Type.Integer(),
  likes: Nullable(Type.Integer()),
  dislikes: Nullable(Type.Integer()),
  comments: Nullable(Type.Integer()),
  list_position: Nullable(Type.Integer()),
});

const DailyGainView = Type.Object({
  country: Type.String(),
  from: Type.String(),
  to: Type.String(),
  days: Type.Integer(),
  views_gained: Type.Integer(),
  views_per_day: Type.Number(),
  likes_gained: Nullable(Type.Integer()),
  comments_gained: Nullable(Type.Integer()),
});

export const VideoDetails = Type.Object({
  ...VideoSummary.properties,
  tags: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  comments_disabled: Type.Union([Type.Boolean(), Type.Null()]),
  ratings_disabled: Type.Union([Type.Boolean(), Type.Null()]),
  trending: Type.Object({
    first_trending_date: Nullable(Type.String()),
    last_trending_date: Nullable(Type.String()),
    daily_growth_rate: Nullable(Type.Number({ description: "compound daily growth of views over the longest country series" })),
    daily_gains: Type.Array(DailyGainView),
    snapshots: Type.Array(SnapshotView),
  }),
});

export const ChannelDetails = Type.Object({
  id: Type.String(),
  title: Type.String(),
  totals: Type.Object({ videos: Type.Integer(), views: Type.Integer(), likes: Type.Integer(), dislikes: Type.Integer(), comments: Type.Integer() }),
  average_engagement_rate: Nullable(Type.Number()),
  countries: Type.Array(Type.String()),
  first_trending_date: Nullable(Type.String()),
  last_trending_date: Nullable(Type.String()),
  top_videos: Type.Array(VideoSummary),
  category_mix: Type.Array(Type.Object({ category_id: Nullable(Type.Integer()), name: Nullable(Type.String()), videos: Type.Integer(), share: Type.Number() })),
  trending_history: Type.Array(Type.Object({ date: Type.String(), videos: Type.Integer(), countries: Type.Array(Type.String()) })),
});

export const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'words of titles, tags and descriptions; "phrase", -exclude, OR, prefix*' })),
  country: Type.Optional(Type.String({ pattern: "^[a-zA-Z]{2}$", description: "videos that trended in this country" })),
  category: Type.Optional(Type.String({ maxLength: 60, description: "category id (24) or name (Entertainment)" })),
  published_after: Type.Optional(Type.String({ maxLength: 40 })),
  published_before: Type.Optional(Type.String({ maxLength: 40 })),
  min_views: Type.Optional(Type.Integer({ minimum: 0 })),
  sort: Type.Optional(Type.Union([Type.Literal("relevance"), Type.Literal("views"), Type.Literal("engagement"), Type.Literal("growth")])),
  ...pageQueryFields,
});
export type SearchQuery = Static<typeof SearchQuery>;

export const SearchPage = Type.Object({
  ...pageInfoFields,
  corrected_query: Type.Union([Type.String(), Type.Null()]),
  videos: Type.Array(VideoSummary),
});

export const TrendingQuery = Type.Object({
  country: Type.String({ pattern: "^[a-zA-Z]{2}$", description: "ISO 3166 alpha-2 code (us, gb, ca, fr, in, mx)" }),
  category: Type.Optional(Type.String({ maxLength: 60, description: "category id or name" })),
  date: Type.Optional(Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "a trending day in the data (default: the country's newest)" })),
  ...pageQueryFields,
});
export type TrendingQuery = Static<typeof TrendingQuery>;

const TrendingVideo = Type.Object({
  rank: Type.Integer({ description: "position by trending score, 1 = fastest" }),
  previous_rank: Nullable(Type.Integer({ description: "rank on the previous day in the data; null when not trending then" })),
  rank_change: Nullable(Type.Integer({ description: "previous_rank - rank: positive when the video rose" })),
  trending_score: Type.Number({ description: "views gained per day since the previous snapshot (first snapshot: since publication)" }),
  list_position: Nullable(Type.Integer({ description: "position in the day's list as collected" })),
  video: VideoSummary,
  day_metrics: Metrics,
});

export const TrendingPage = Type.Object({
  country: Type.String(),
  date: Type.String(),
  previous_date: Nullable(Type.String()),
  ...pageInfoFields,
  videos: Type.Array(TrendingVideo),
});
