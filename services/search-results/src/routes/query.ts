/** What the three searches share: reading q, page, num, language and safe, and the envelope around the results. */
import { textSearchConfig } from "@apiplat/catalogue";
import { errors } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { DEFAULT_NUM, MAX_POSITION, type SearchQuery } from "../schemas.js";
import type { SearchCatalogue, SearchRequest } from "../store/search-catalogue.js";
import { correctedQuery, spellingSuggestion } from "../store/spelling.js";

interface PreparedSearch {
  request: SearchRequest;
  /** A look-alike of a rare word, suggested but not searched. */
  spellingFix: string | null;
  page: number;
  num: number;
  started: number;
}

export async function prepareSearch(db: Queryable, catalogue: SearchCatalogue, query: SearchQuery): Promise<PreparedSearch> {
  const started = performance.now();
  const page = query.page ?? 1;
  const num = query.num ?? DEFAULT_NUM;
  if (!/[\p{L}\p{N}]/u.test(query.q)) throw errors.validation("q", "must contain at least one letter or digit");
  const offset = (page - 1) * num;
  if (offset >= MAX_POSITION) {
    throw errors.validation(
      "page",
      `must be at most ${Math.ceil(MAX_POSITION / num)} with num=${num}: results past position ${MAX_POSITION} are not served, narrow the query instead`,
    );
  }
  const language = query.language?.toLowerCase();
  const text = await correctedQuery(db, query.q, catalogue);
  return {
    spellingFix: await spellingSuggestion(db, text, catalogue),
    request: {
      query: text,
      config: textSearchConfig(language ?? "en"),
      language,
      safe: query.safe === "active",
      offset,
      limit: num,
    },
    page,
    num,
    started,
  };
}

/** search_parameters, search_information and pagination of an answer. */
export function envelope(query: SearchQuery, prepared: PreparedSearch, total: number) {
  const reachable = Math.min(total, MAX_POSITION);
  const last = Math.max(1, Math.ceil(reachable / prepared.num));
  return {
    search_parameters: { q: query.q, page: prepared.page, num: prepared.num, language: prepared.request.language ?? null, safe: query.safe ?? "off" },
    search_information: {
      total_results: total,
      time_taken_ms: Math.round((performance.now() - prepared.started) * 10) / 10,
      query_displayed: query.q,
      showing_results_for: prepared.request.query.corrected,
      spelling_fix: prepared.spellingFix,
    },
    pagination: { current: prepared.page, next: prepared.page < last ? prepared.page + 1 : null, last },
  };
}

/** 1-based positions across pages. */
export function positionOf(prepared: PreparedSearch, index: number): number {
  return prepared.request.offset + index + 1;
}
