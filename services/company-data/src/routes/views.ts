import type { Profile } from "../domain/merge.js";
import type * as S from "../schemas.js";

export function companySummary(profile: Profile, matchScore: number | null): S.CompanySummary {
  return {
    id: profile.id,
    name: profile.name,
    legal_name: profile.legal_name,
    cik: profile.cik,
    ticker: profile.ticker,
    exchange: profile.exchange,
    industry: profile.industry,
    sector: profile.sector,
    employees: profile.employees?.count ?? null,
    headquarters: profile.headquarters,
    domain: profile.domain,
    fortune_rank: profile.fortune_1000?.rank ?? null,
    match_score: matchScore,
  };
}
