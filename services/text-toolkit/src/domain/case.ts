export const CASE_TYPES = ["upper", "lower", "title", "snake", "kebab", "camel"] as const;
type CaseType = (typeof CASE_TYPES)[number];

const APOSTROPHE_IN_WORD = /(?<=[\p{L}\p{N}])['’](?=[\p{L}\p{N}])/gu;

/**
 * Words of an identifier or a sentence: split on anything that is not a letter, mark or digit, and on
 * case changes ("fooBar" -> foo|Bar, "XMLHttpRequest" -> XML|Http|Request). Digits stay with the letters
 * before them ("utf8String" -> utf8|String).
 */
export function words(text: string): string[] {
  return text
    .normalize("NFC")
    .replace(APOSTROPHE_IN_WORD, "")
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean);
}

function capitalize(word: string): string {
  const [first = "", ...rest] = word;
  return first.toUpperCase() + rest.join("").toLowerCase();
}

/** Title case keeps the text's own spacing and punctuation and capitalizes each word. */
function titleCase(text: string): string {
  return text.normalize("NFC").replace(/[\p{L}\p{M}\p{N}'’]+/gu, capitalize);
}

export function convertCase(text: string, type: CaseType): string {
  switch (type) {
    case "upper":
      return text.toUpperCase();
    case "lower":
      return text.toLowerCase();
    case "title":
      return titleCase(text);
    case "snake":
      return words(text)
        .map((w) => w.toLowerCase())
        .join("_");
    case "kebab":
      return words(text)
        .map((w) => w.toLowerCase())
        .join("-");
    case "camel":
      return words(text)
        .map((w, i) => (i === 0 ? w.toLowerCase() : capitalize(w)))
        .join("");
  }
}
