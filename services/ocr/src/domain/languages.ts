/** Every language Tesseract publishes trained data for (tessdata / tessdata_fast), with its English name. */
export const LANGUAGE_CATALOGUE: ReadonlyArray<readonly [code: string, name: string]> = [
  ["afr", "Afrikaans"],
  ["amh", "Amharic"],
  ["ara", "Arabic"],
  ["asm", "Assamese"],
  ["aze", "Azerbaijani"],
  ["aze_cyrl", "Azerbaijani (Cyrillic)"],
  ["bel", "Belarusian"],
  ["ben", "Bengali"],
  ["bod", "Tibetan"],
  ["bos", "Bosnian"],
  ["bre", "Breton"],
  ["bul", "Bulgarian"],
  ["cat", "Catalan"],
  ["ceb", "Cebuano"],
  ["ces", "Czech"],
  ["chi_sim", "Chinese (Simplified)"],
  ["chi_sim_vert", "Chinese (Simplified, vertical)"],
  ["chi_tra", "Chinese (Traditional)"],
  ["chi_tra_vert", "Chinese (Traditional, vertical)"],
  ["chr", "Cherokee"],
  ["cos", "Corsican"],
  ["cym", "Welsh"],
  ["dan", "Danish"],
  ["deu", "German"],
  ["div", "Dhivehi"],
  ["dzo", "Dzongkha"],
  ["ell", "Greek"],
  ["eng", "English"],
  ["enm", "English, Middle (1100-1500)"],
  ["epo", "Esperanto"],
  ["est", "Estonian"],
  ["eus", "Basque"],
  ["fao", "Faroese"],
  ["fas", "Persian"],
  ["fil", "Filipino"],
  ["fin", "Finnish"],
  ["fra", "French"],
  ["frk", "German (Fraktur)"],
  ["frm", "French, Middle (ca. 1400-1600)"],
  ["fry", "Western Frisian"],
  ["gla", "Scottish Gaelic"],
  ["gle", "Irish"],
  ["glg", "Galician"],
  ["grc", "Greek, Ancient (to 1453)"],
  ["guj", "Gujarati"],
  ["hat", "Haitian Creole"],
  ["heb", "Hebrew"],
  ["hin", "Hindi"],
  ["hrv", "Croatian"],
  ["hun", "Hungarian"],
  ["hye", "Armenian"],
  ["iku", "Inuktitut"],
  ["ind", "Indonesian"],
  ["isl", "Icelandic"],
  ["ita", "Italian"],
  ["ita_old", "Italian (Old)"],
  ["jav", "Javanese"],
  ["jpn", "Japanese"],
  ["jpn_vert", "Japanese (vertical)"],
  ["kan", "Kannada"],
  ["kat", "Georgian"],
  ["kat_old", "Georgian (Old)"],
  ["kaz", "Kazakh"],
  ["khm", "Khmer"],
  ["kir", "Kyrgyz"],
  ["kmr", "Kurdish (Kurmanji, Latin)"],
  ["kor", "Korean"],
  ["kor_vert", "Korean (vertical)"],
  ["lao", "Lao"],
  ["lat", "Latin"],
  ["lav", "Latvian"],
  ["lit", "Lithuanian"],
  ["ltz", "Luxembourgish"],
  ["mal", "Malayalam"],
  ["mar", "Marathi"],
  ["mkd", "Macedonian"],
  ["mlt", "Maltese"],
  ["mon", "Mongolian"],
  ["mri", "Maori"],
  ["msa", "Malay"],
  ["mya", "Burmese"],
  ["nep", "Nepali"],
  ["nld", "Dutch"],
  ["nor", "Norwegian"],
  ["oci", "Occitan (post 1500)"],
  ["ori", "Odia"],
  ["pan", "Punjabi"],
  ["pol", "Polish"],
  ["por", "Portuguese"],
  ["pus", "Pashto"],
  ["que", "Quechua"],
  ["ron", "Romanian"],
  ["rus", "Russian"],
  ["san", "Sanskrit"],
  ["sin", "Sinhala"],
  ["slk", "Slovak"],
  ["slv", "Slovenian"],
  ["snd", "Sindhi"],
  ["spa", "Spanish"],
  ["spa_old", "Spanish (Old)"],
  ["sqi", "Albanian"],
  ["srp", "Serbian (Cyrillic)"],
  ["srp_latn", "Serbian (Latin)"],
  ["sun", "Sundanese"],
  ["swa", "Swahili"],
  ["swe", "Swedish"],
  ["syr", "Syriac"],
  ["tam", "Tamil"],
  ["tat", "Tatar"],
  ["tel", "Telugu"],
  ["tgk", "Tajik"],
  ["tha", "Thai"],
  ["tir", "Tigrinya"],
  ["ton", "Tongan"],
  ["tur", "Turkish"],
  ["uig", "Uyghur"],
  ["ukr", "Ukrainian"],
  ["urd", "Urdu"],
  ["uzb", "Uzbek"],
  ["uzb_cyrl", "Uzbek (Cyrillic)"],
  ["vie", "Vietnamese"],
  ["yid", "Yiddish"],
  ["yor", "Yoruba"],
];

/** Data files in a tessdata folder that are not recognition languages. */
export const NON_LANGUAGE_DATA = new Set(["osd", "equ"]);

export const MAX_LANGUAGES_PER_REQUEST = 5;

interface LanguageEntry {
  code: string;
  name: string;
  installed: boolean;
  debian_package: string;
}

function debianPackageFor(code: string): string {
  return `tesseract-ocr-${code.replace(/_/g, "-")}`;
}

/** The catalogue marked with what is installed, plus any installed data the catalogue does not name. */
export function describeLanguages(installed: ReadonlySet<string>): LanguageEntry[] {
  const known = new Set(LANGUAGE_CATALOGUE.map(([code]) => code));
  const entries: LanguageEntry[] = LANGUAGE_CATALOGUE.map(([code, name]) => ({
    code,
    name,
    installed: installed.has(code),
    debian_package: debianPackageFor(code),
  }));
  for (const code of [...installed].sort()) {
    if (!known.has(code)) entries.push({ code, name: code, installed: true, debian_package: debianPackageFor(code) });
  }
  return entries;
}

type LanguageSpecResult = { ok: true; codes: string[] } | { ok: false; issue: string };

/** Parses "eng" or "eng+deu" and checks every code is installed. */
export function parseLanguageSpec(spec: string, installed: ReadonlySet<string>): LanguageSpecResult {
  const codes = spec.split("+");
  if (codes.some((code) => !/^[a-z][a-z0-9_]{1,15}$/.test(code))) {
    return { ok: false, issue: "must be language codes joined by '+', e.g. 'eng' or 'eng+deu'" };
  }
  if (codes.length > MAX_LANGUAGES_PER_REQUEST) {
    return { ok: false, issue: `must name at most ${MAX_LANGUAGES_PER_REQUEST} languages` };
  }
  if (new Set(codes).size !== codes.length) {
    return { ok: false, issue: "must not repeat a language" };
  }
  const missing = codes.filter((code) => !installed.has(code));
  if (missing.length > 0) {
    return {
      ok: false,
      issue: `'${missing.join("', '")}' ${missing.length === 1 ? "is" : "are"} not installed; GET /languages lists the installed ones`,
    };
  }
  return { ok: true, codes };
}
