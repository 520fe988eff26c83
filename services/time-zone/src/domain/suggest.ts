/** Close matches for a zone name nobody knows: typos ("Europe/Berln"), bare cities ("new york"), wrong case. */

/** Rows reused between calls: suggestions compare one input with every name, allocation would dominate. */
let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(0), new Int32Array(0), new Int32Array(0)];

/**
 * Optimal string alignment distance (Levenshtein plus the swap of two neighbouring letters), given up as soon as it
 * must exceed `max`: then any value above `max` is returned.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (rows[0].length < b.length + 1) rows = [new Int32Array(b.length + 1), new Int32Array(b.length + 1), new Int32Array(b.length + 1)];
  let [previous2, previous, current] = rows;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        value = Math.min(value, previous2[j - 2] + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [previous2, previous, current] = [previous, current, previous2];
  }
  return previous[b.length];
}

export function normalizeZoneText(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

interface Candidate {
  name: string;
  normalized: string;
  city: string;
}

/** Suggests real names for a wrong one; the names are normalized once, when the database loads. */
export class ZoneSuggester {
  private readonly candidates: Candidate[];

  constructor(names: readonly string[]) {
    this.candidates = names.map((name) => {
      const normalized = normalizeZoneText(name);
      return { name, normalized, city: normalized.slice(normalized.lastIndexOf("/") + 1) };
    });
  }

  /** Up to `limit` names, closest first; empty when nothing is reasonably close. */
  closeMatches(input: string, limit = 5): string[] {
    const wanted = normalizeZoneText(input);
    if (wanted.length === 0) return [];
    const allowed = Math.max(2, Math.floor(wanted.length / 4));
    const bareCity = !wanted.includes("/");
    const scored: { name: string; score: number }[] = [];
    for (const c of this.candidates) {
      let score = editDistance(wanted, c.normalized, allowed);
      if (bareCity && score > 0) score = Math.min(score, editDistance(wanted, c.city, allowed));
      if (score > allowed && wanted.length >= 3 && c.normalized.includes(wanted)) score = allowed;
      if (score <= allowed) scored.push({ name: c.name, score });
    }
    scored.sort((a, b) => a.score - b.score || a.name.length - b.name.length || (a.name < b.name ? -1 : 1));
    return scored.slice(0, limit).map((s) => s.name);
  }
}

export function closeMatches(input: string, names: readonly string[], limit = 5): string[] {
  return new ZoneSuggester(names).closeMatches(input, limit);
}
