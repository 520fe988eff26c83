import { Gazetteer, type PlaceRecord } from "./gazetteer.js";
import { codePointLength, normalizeName } from "./normalize.js";

const MIN_NAME_LENGTH = 2;
const MIN_PREFIX_LENGTH = 3;

/** How well the name matched; added to the place's importance (log10 population + feature bonus). */
const MATCH_SCORE = {
  exactPrimary: 3,
  exactAlternate: 2,
  prefixPrimary: 1,
  prefixAlternate: 0,
} as const;

export interface SearchRequest {
  q: string;
  limit: number;
  language?: string;
  country?: string;
}

interface SearchOutcome {
  /** the place-name part of q, normalized as it was matched */
  name: string;
  /** the qualifiers after the first comma, normalized */
  qualifiers: string[];
  results: PlaceRecord[];
}

export class QueryError extends Error {
  constructor(
    readonly field: string,
    readonly issue: string,
  ) {
    super(`${field} ${issue}`);
  }
}

/** Splits "Paris, Texas, US" into the name and the qualifiers that narrow it. */
export function parseQuery(q: string): { name: string; qualifiers: string[] } {
  const [namePart, ...qualifierParts] = q.split(",");
  const name = normalizeName(namePart);
  if (codePointLength(name) < MIN_NAME_LENGTH) {
    throw new QueryError("q", `must name a place with at least ${MIN_NAME_LENGTH} letters or digits before any comma`);
  }
  const qualifiers = qualifierParts.map(normalizeName).filter((qualifier) => qualifier.length > 0);
  return { name, qualifiers };
}

interface Qualifier {
  countries: Uint8Array;
  regions: Uint8Array;
}

export class PlaceSearch {
  private readonly bestScore: Float64Array;
  private readonly seenInQuery: Uint32Array;
  private query = 0;

  constructor(private readonly gazetteer: Gazetteer) {
    this.bestScore = new Float64Array(gazetteer.count);
    this.seenInQuery = new Uint32Array(gazetteer.count);
  }

  search(request: SearchRequest): SearchOutcome {
    const { name, qualifiers } = parseQuery(request.q);
    const resolved = qualifiers.map((qualifier) => this.resolveQualifier(qualifier));
    const countryFilter = request.country === undefined ? -1 : this.gazetteer.countryIndexOf(request.country);
    if (request.country !== undefined && countryFilter === -1) {
      throw new QueryError("country", "must be the ISO 3166-1 alpha-2 code of a country with places in the gazetteer");
    }
    const candidates = this.collect(name, request.limit, (place) => this.passes(place, countryFilter, resolved));
    const ranked = this.rank(candidates).slice(0, request.limit);
    return {
      name,
      qualifiers,
      results: ranked.map((place) => this.gazetteer.describe(place, request.language)),
    };
  }

  private collect(name: string, limit: number, accept: (place: number) => boolean): number[] {
    const { gazetteer, bestScore, seenInQuery } = this;
    const query = this.nextQueryStamp();
    const touched: number[] = [];
    gazetteer.nameIndex.forEachExact(name, (posting) => {
      const place = Gazetteer.placeOfPosting(posting);
      const alternate = Gazetteer.isAlternatePosting(posting);
      const score = (alternate ? MATCH_SCORE.exactAlternate : MATCH_SCORE.exactPrimary) + gazetteer.importance[place];
      if (seenInQuery[place] === query) {
        if (score > bestScore[place]) bestScore[place] = score;
        return;
      }
      seenInQuery[place] = query;
      bestScore[place] = accept(place) ? score : -Infinity;
      if (bestScore[place] !== -Infinity) touched.push(place);
    });
    // Prefix hits arrive best first and always score below an exact hit, so `limit` of them suffice.
    let prefixHits = 0;
    const alternatePenalty = MATCH_SCORE.prefixPrimary - MATCH_SCORE.prefixAlternate;
    gazetteer.nameIndex.scanPrefix(name, gazetteer.importance, alternatePenalty, (posting) => {
      const place = Gazetteer.placeOfPosting(posting);
      if (seenInQuery[place] === query) return true;
      seenInQuery[place] = query;
      if (!accept(place)) return true;
      const alternate = Gazetteer.isAlternatePosting(posting);
      bestScore[place] = (alternate ? MATCH_SCORE.prefixAlternate : MATCH_SCORE.prefixPrimary) + gazetteer.importance[place];
      touched.push(place);
      prefixHits++;
      return prefixHits < limit;
    });
    return touched;
  }

  private rank(places: number[]): number[] {
    const { bestScore, gazetteer } = this;
    return places.sort((a, b) => bestScore[b] - bestScore[a] || gazetteer.populations[b] - gazetteer.populations[a] || gazetteer.ids[a] - gazetteer.ids[b]);
  }

  private passes(place: number, countryFilter: number, qualifiers: Qualifier[]): boolean {
    const country = this.gazetteer.countryOf[place];
    if (countryFilter !== -1 && country !== countryFilter) return false;
    const region = this.gazetteer.admin1Of[place];
    for (const qualifier of qualifiers) {
      if (qualifier.countries[country] !== 1 && (region === -1 || qualifier.regions[region] !== 1)) return false;
    }
    return true;
  }

  private resolveQualifier(qualifier: string): Qualifier {
    const prefix = codePointLength(qualifier) >= MIN_PREFIX_LENGTH;
    const countries = new Uint8Array(this.gazetteer.countryCodes.length);
    const regions = new Uint8Array(this.gazetteer.admin1Count);
    this.gazetteer.countryIndex.forEachMatch(qualifier, prefix, (country) => (countries[country] = 1));
    this.gazetteer.admin1Index.forEachMatch(qualifier, prefix, (region) => (regions[region] = 1));
    return { countries, regions };
  }

  private nextQueryStamp(): number {
    this.query = (this.query + 1) >>> 0;
    if (this.query === 0) {
      this.seenInQuery.fill(0);
      this.query = 1;
    }
    return this.query;
  }
}
