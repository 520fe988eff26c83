/**
 * Country names to ISO 3166-1 alpha-2 codes ("united kingdom" -> "GB"), as every headquarters shows its country: the
 * names are the English region names of the runtime's ICU data (Intl.DisplayNames), matched in any case.
 */
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
let codes: Map<string, string> | undefined;

function codeTable(): Map<string, string> {
  const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
  const table = new Map<string, string>();
  for (const first of LETTERS) {
    for (const second of LETTERS) {
      const code = first + second;
      // A deprecated code (DD, UK, BU) is canonicalized to the one in use (DE, GB, MM): only codes in use are kept.
      if (new Intl.Locale(`und-${code}`).region !== code) continue;
      const name = names.of(code);
      if (name && !table.has(name.toLowerCase())) table.set(name.toLowerCase(), code);
    }
  }
  return table;
}

/** The alpha-2 code of a country given by name or code; null when it is neither. */
export function isoCountry(text: string | null): string | null {
  if (!text) return null;
  const trimmed = text.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed)) return trimmed.toUpperCase();
  codes ??= codeTable();
  return codes.get(trimmed.toLowerCase()) ?? null;
}
