import { Type, type Static } from "typebox";

const MAX_NUM = 100;
export const DEFAULT_NUM = 10;
/** Results past this position are not served (as search engines stop at about 1,000): narrow the query instead. */
export const MAX_POSITION = 10_000;

export const SearchQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 500, description: 'the query: words, "exact phrase", -exclude, a OR b, prefix*' }),
  page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_POSITION, default: 1, description: `results page, from 1; (page - 1) × num must stay below ${MAX_POSITION}` }),
  ),
  num: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_NUM, default: DEFAULT_NUM, description: `results per page, 1 to ${MAX_NUM} (default ${DEFAULT_NUM})` }),
  ),
  language: Type.Optional(
    Type.String({
      pattern: "^[a-zA-Z]{2}$",
      errorMessage: "must be an ISO 639-1 code such as en",
      description: "ISO 639-1 code: only documents in that language, and its stemming of q (every dataset is English)",
    }),
  ),
  safe: Type.Optional(
    Type.Union([Type.Literal("active"), Type.Literal("off")], {
      description: "active leaves out results containing a word of the explicit-terms list (see the README); off (default) does not",
    }),
  ),
});
export type SearchQuery = Static<typeof SearchQuery>;

const SearchParameters = Type.Object({
  q: Type.String(),
  page: Type.Integer(),
  num: Type.Integer(),
  language: Type.Union([Type.String(), Type.Null()]),
  safe: Type.String(),
});

const SearchInformation = Type.Object({
  total_results: Type.Integer({ description: "results matching the query, all pages together" }),
  time_taken_ms: Type.Number({ description: "time spent searching, in milliseconds" }),
  query_displayed: Type.String(),
  showing_results_for: Type.Union([Type.String(), Type.Null()], {
    description:
      "the query as searched, when a word of q that no indexed document holds was replaced by the closest word of the index (a query whose words all exist is searched as written)",
  }),
  spelling_fix: Type.Union([Type.String(), Type.Null()], {
    description: '"Did you mean": q with a rare word (in at most 3 documents) replaced by a much more frequent look-alike; suggested, not searched',
  }),
});

const Pagination = Type.Object({
  current: Type.Integer(),
  next: Type.Union([Type.Integer(), Type.Null()], { description: "the next page number, null on the last page" }),
  last: Type.Integer({ description: "the last page with results for this num (1 when there are none)" }),
});

const Envelope = <T extends Record<string, ReturnType<typeof Type.Array>>>(results: T) =>
  Type.Object({ search_parameters: SearchParameters, search_information: SearchInformation, pagination: Pagination, ...results });

export const OrganicResult = Type.Object({
  position: Type.Integer({ description: "1-based, across pages" }),
  title: Type.String(),
  link: Type.String(),
  displayed_link: Type.String(),
  snippet: Type.String({ description: "plain text from the page around the matched words" }),
  snippet_highlighted_words: Type.Array(Type.String(), { description: "the words of the snippet that matched the query, as SerpAPI lists them" }),
  date: Type.Optional(
    Type.String({ format: "date-time", description: "when the page was posted (Stack Exchange) or last modified (crawled); absent when unknown" }),
  ),
  source: Type.String({ description: "the site: Wikipedia, Coffee Stack Exchange, ..., or a crawled page's host" }),
});
export type OrganicResult = Static<typeof OrganicResult>;

const RelatedSearch = Type.Object({
  query: Type.String(),
  link: Type.String({ description: "this service's /search for the query" }),
});

export const WebSearchPage = Envelope({
  organic_results: Type.Array(OrganicResult),
  related_searches: Type.Array(RelatedSearch),
});

export const ImageResult = Type.Object({
  position: Type.Integer(),
  title: Type.String({ description: "the image's first caption" }),
  original: Type.String({ description: "the image's URL" }),
  source: Type.String(),
  width: Type.Union([Type.Integer(), Type.Null()]),
  height: Type.Union([Type.Integer(), Type.Null()]),
  flickr_url: Type.Union([Type.String(), Type.Null()]),
  licence: Type.Union([Type.Object({ name: Type.String(), url: Type.String() }), Type.Null()], { description: "the image's own Flickr licence" }),
});
export type ImageResult = Static<typeof ImageResult>;

export const ImageSearchPage = Envelope({ images_results: Type.Array(ImageResult) });

export const NewsResult = Type.Object({
  position: Type.Integer(),
  title: Type.String(),
  link: Type.String(),
  source: Type.String(),
  date: Type.String({ format: "date-time" }),
  snippet: Type.Union([Type.String(), Type.Null()], { description: "the article's description; null for UCI headlines, which have none" }),
});
export type NewsResult = Static<typeof NewsResult>;

export const NewsSearchPage = Envelope({ news_results: Type.Array(NewsResult) });
