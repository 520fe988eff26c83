import { DatasetView, FacetCounts, pageInfoFields, pageQueryFields, sortQuery } from "@apiplat/catalogue";
import { Type, type Static } from "typebox";

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const List = (description: string) => Type.String({ maxLength: 500, description });

export const SORTS = ["relevancy", "published_at", "popularity"] as const;

export const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'keywords; "exact phrase", -exclude, a OR b, prefix*' })),
  topic: Type.Optional(List("categories, comma-separated (alias of category)")),
  category: Type.Optional(List("categories, comma-separated (politics, business, technology, ...)")),
  country: Type.Optional(List("ISO 3166 alpha-2 codes, comma-separated (us, gb, au, in, ...)")),
  language: Type.Optional(Type.String({ pattern: "^[a-zA-Z]{2}$", description: "ISO 639-1 code; also picks the stemming of q" })),
  sources: Type.Optional(List("source ids, comma-separated (see /sources)")),
  domains: Type.Optional(List("hosts, comma-separated (huffpost.com, latimes.com)")),
  from: Type.Optional(Type.String({ maxLength: 40, description: "oldest published_at, YYYY-MM-DD or ISO 8601" })),
  to: Type.Optional(Type.String({ maxLength: 40, description: "newest published_at, YYYY-MM-DD (whole day) or ISO 8601" })),
  sort_by: sortQuery(SORTS, "relevancy (default with q), published_at (default without), popularity"),
  facets: Type.Optional(Type.Boolean({ description: "add counts by category, country and source" })),
  ...pageQueryFields,
});
export type SearchQuery = Static<typeof SearchQuery>;

export const TopHeadlinesQuery = Type.Object({
  country: Type.Optional(List("ISO 3166 alpha-2 codes, comma-separated")),
  category: Type.Optional(List("categories, comma-separated")),
  sources: Type.Optional(List("source ids, comma-separated; not with country or category")),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  ...pageQueryFields,
});
export type TopHeadlinesQuery = Static<typeof TopHeadlinesQuery>;

export const Article = Type.Object({
  id: Type.String(),
  source: Type.Object({ id: Type.String(), name: Type.String() }),
  author: Nullable(Type.String()),
  title: Type.String(),
  description: Nullable(Type.String()),
  url: Nullable(Type.String({ description: "null for the headline-only datasets (ABC, Times of India)" })),
  image_url: Nullable(Type.String()),
  published_at: Type.String({ format: "date-time" }),
  category: Nullable(Type.String()),
  country: Nullable(Type.String()),
  language: Type.String(),
  popularity: Type.Union([Type.Integer(), Type.Null()], { description: "articles covering the same story (UCI only)" }),
});
export type Article = Static<typeof Article>;

export const ArticlePage = Type.Object({
  ...pageInfoFields,
  corrected_query: Type.Union([Type.String(), Type.Null()], { description: "what was searched when a word of q was corrected" }),
  articles: Type.Array(Article),
  facets: Type.Optional(Type.Object({ category: FacetCounts, country: FacetCounts, source: FacetCounts })),
});

export const HeadlinesPage = Type.Intersect([
  ArticlePage,
  Type.Object({
    selection: Type.Object(
      {
        window_start: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
        window_end: Type.Union([Type.String({ format: "date-time" }), Type.Null()], { description: "the newest article in scope: the catalogue's now" }),
        max_results: Type.Integer(),
      },
      { description: "how the headlines were chosen: the articles of (window_start, window_end], newest first, at most max_results" },
    ),
  }),
]);

export const SourcesQuery = Type.Object({
  category: Type.Optional(Type.String({ maxLength: 100 })),
  language: Type.Optional(Type.String({ pattern: "^[a-zA-Z]{2}$" })),
  country: Type.Optional(Type.String({ pattern: "^[a-zA-Z]{2}$" })),
  ...pageQueryFields,
});
export type SourcesQuery = Static<typeof SourcesQuery>;

export const Source = Type.Object({
  id: Type.String(),
  name: Type.String(),
  url: Nullable(Type.String()),
  category: Nullable(Type.String()),
  language: Nullable(Type.String()),
  country: Nullable(Type.String()),
  article_count: Type.Integer(),
  oldest_published_at: Nullable(Type.String({ format: "date-time" })),
  newest_published_at: Nullable(Type.String({ format: "date-time" })),
});

export const SourcesPage = Type.Object({
  ...pageInfoFields,
  sources: Type.Array(Source),
  datasets: Type.Array(DatasetView),
});

export const WINDOWS = { "24h": 1, "7d": 7, "30d": 30 } as const;

export const TrendingQuery = Type.Object({
  window: Type.Optional(
    Type.Union(
      Object.keys(WINDOWS).map((w) => Type.Literal(w)),
      { description: "24h (default), 7d or 30d" },
    ),
  ),
  country: Type.Optional(Type.String({ pattern: "^[a-zA-Z]{2}$" })),
  category: Type.Optional(Type.String({ maxLength: 100 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: "topics, 1 to 50 (default 10)" })),
});
export type TrendingQuery = Static<typeof TrendingQuery>;

const TrendingTopic = Type.Object({
  topic: Type.String({ description: "the word as headlines spell it most often" }),
  count: Type.Integer({ description: "headlines of the window that mention it" }),
  previous_count: Type.Integer({ description: "headlines of the previous window of the same length" }),
  growth: Type.Number({ description: "(count + 1) / (previous_count + 1)" }),
  example_headlines: Type.Array(Type.Object({ title: Type.String(), url: Nullable(Type.String()), source: Type.String(), published_at: Type.String() })),
});

export const Trending = Type.Object({
  window: Type.String(),
  window_start: Type.Union([Type.String({ format: "date-time" }), Type.Null()], { description: "null when no article is in scope" }),
  window_end: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
    description: "the newest article in scope (the catalogue is historical); null when none is",
  }),
  headlines_in_window: Type.Integer(),
  headlines_in_previous_window: Type.Integer(),
  topics: Type.Array(TrendingTopic),
});
