/**
 * The Porter stemmer as NLTK's PorterStemmer applies it in its default mode (NLTK_EXTENSIONS): the stemmer Google's
 * rouge-score uses with use_stemmer=True, so that ROUGE here counts the same matches as the reference implementation.
 * Porter (1980), "An algorithm for suffix stripping", with NLTK's departures from it:
 * - a few irregular forms map directly (dying -> die, skies -> sky, news -> news, ...);
 * - words of one or two letters are left alone;
 * - step 1a: a four-letter "-ies" word becomes "-ie" (dies -> die); step 1b: "-ied" becomes "-ie" in a four-letter
 *   word and "-i" otherwise;
 * - step 1c: y -> i only after a consonant that is not the word's first letter (happy -> happi, enjoy -> enjoy);
 * - step 2: "-alli" -> "-al" is tried first and, when it applies, step 2 runs again; "-bli" -> "-ble" (Porter's
 *   later correction of "-abli"), and two more rules: "-fulli" -> "-ful", "-logi" -> "-log";
 * - the *o condition also holds for a two-letter stem vowel-consonant.
 * Checked against NLTK 3.8.1 on the 23,275 distinct words of the ROUGE samples (docs/performance/summarization.md),
 * and by services/summarization/test/evaluation/rouge.test.ts.
 */

const IRREGULAR = new Map<string, string>(
  Object.entries({
    sky: "sky",
    skies: "sky",
    dying: "die",
    lying: "lie",
    tying: "tie",
    news: "news",
    innings: "inning",
    inning: "inning",
    outings: "outing",
    outing: "outing",
    cannings: "canning",
    canning: "canning",
    howe: "howe",
    proceed: "proceed",
    exceed: "exceed",
    succeed: "succeed",
  }),
);

const VOWELS = new Set(["a", "e", "i", "o", "u"]);

/** A consonant is a letter other than a, e, i, o, u, and other than y after a consonant. */
function isConsonant(word: string, i: number): boolean {
  const letter = word[i]!;
  if (VOWELS.has(letter)) return false;
  if (letter === "y") return i === 0 || !isConsonant(word, i - 1);
  return true;
}

/** m in [C](VC){m}[V]: how many vowel-to-consonant transitions the stem has. */
function measure(stem: string): number {
  let count = 0;
  for (let i = 1; i < stem.length; i += 1) if (!isConsonant(stem, i - 1) && isConsonant(stem, i)) count += 1;
  return count;
}

const positiveMeasure = (stem: string) => measure(stem) > 0;

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i += 1) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y (or, in NLTK, is a two-letter vowel-consonant). */
function endsCvc(word: string): boolean {
  const n = word.length;
  const cvc = n >= 3 && isConsonant(word, n - 3) && !isConsonant(word, n - 2) && isConsonant(word, n - 1) && !"wxy".includes(word[n - 1]!);
  return cvc || (n === 2 && !isConsonant(word, 0) && isConsonant(word, 1));
}

/** A suffix rule: [suffix, replacement, condition on the stem]. "*d" stands for "ends in a double consonant". */
type Rule = [suffix: string, replacement: string, condition?: (stem: string) => boolean];

/** The first rule whose suffix the word has decides: applied when its condition holds, the word kept otherwise. */
function applyFirst(word: string, rules: Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === "*d" && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2);
      return !condition || condition(stem) ? stem + replacement : word;
    }
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, word.length - suffix.length);
      return !condition || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

function step1a(word: string): string {
  if (word.endsWith("ies") && word.length === 4) return `${word.slice(0, -3)}ie`;
  return applyFirst(word, [
    ["sses", "ss"],
    ["ies", "i"],
    ["ss", "ss"],
    ["s", ""],
  ]);
}

function step1b(word: string): string {
  if (word.endsWith("ied")) return word.slice(0, -3) + (word.length === 4 ? "ie" : "i");
  if (word.endsWith("eed")) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? `${stem}ee` : word;
  }
  let stem: string | undefined;
  for (const suffix of ["ed", "ing"]) {
    if (word.endsWith(suffix) && containsVowel(word.slice(0, -suffix.length))) {
      stem = word.slice(0, -suffix.length);
      break;
    }
  }
  if (stem === undefined) return word;
  const last = stem.at(-1)!;
  return applyFirst(stem, [
    ["at", "ate"],
    ["bl", "ble"],
    ["iz", "ize"],
    ["*d", last, () => !"lsz".includes(last)],
    ["", "e", (s) => measure(s) === 1 && endsCvc(s)],
  ]);
}

function step1c(word: string): string {
  return applyFirst(word, [["y", "i", (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

function step2(word: string): string {
  if (word.endsWith("alli") && positiveMeasure(word.slice(0, -4))) return step2(`${word.slice(0, -4)}al`);
  return applyFirst(word, [
    ["ational", "ate", positiveMeasure],
    ["tional", "tion", positiveMeasure],
    ["enci", "ence", positiveMeasure],
    ["anci", "ance", positiveMeasure],
    ["izer", "ize", positiveMeasure],
    ["bli", "ble", positiveMeasure],
    ["alli", "al", positiveMeasure],
    ["entli", "ent", positiveMeasure],
    ["eli", "e", positiveMeasure],
    ["ousli", "ous", positiveMeasure],
    ["ization", "ize", positiveMeasure],
    ["ation", "ate", positiveMeasure],
    ["ator", "ate", positiveMeasure],
    ["alism", "al", positiveMeasure],
    ["iveness", "ive", positiveMeasure],
    ["fulness", "ful", positiveMeasure],
    ["ousness", "ous", positiveMeasure],
    ["aliti", "al", positiveMeasure],
    ["iviti", "ive", positiveMeasure],
    ["biliti", "ble", positiveMeasure],
    ["fulli", "ful", positiveMeasure],
    // The "l" of "-logi" stays with the stem for the measure, so that short stems (geo-, theo-) count like long ones.
    ["logi", "log", () => positiveMeasure(word.slice(0, -3))],
  ]);
}

function step3(word: string): string {
  return applyFirst(word, [
    ["icate", "ic", positiveMeasure],
    ["ative", "", positiveMeasure],
    ["alize", "al", positiveMeasure],
    ["iciti", "ic", positiveMeasure],
    ["ical", "ic", positiveMeasure],
    ["ful", "", positiveMeasure],
    ["ness", "", positiveMeasure],
  ]);
}

function step4(word: string): string {
  const measureOverOne = (stem: string) => measure(stem) > 1;
  const suffixes = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent"];
  return applyFirst(word, [
    ...suffixes.map((suffix): Rule => [suffix, "", measureOverOne]),
    ["ion", "", (stem) => measure(stem) > 1 && (stem.endsWith("s") || stem.endsWith("t"))],
    ...["ou", "ism", "ate", "iti", "ous", "ive", "ize"].map((suffix): Rule => [suffix, "", measureOverOne]),
  ]);
}

function step5(word: string): string {
  let stem = word;
  if (stem.endsWith("e")) {
    const shorter = stem.slice(0, -1);
    const m = measure(shorter);
    if (m > 1 || (m === 1 && !endsCvc(shorter))) stem = shorter;
  }
  if (stem.endsWith("ll") && measure(stem.slice(0, -1)) > 1) stem = stem.slice(0, -1);
  return stem;
}

/** The stem of a word, lower-cased first. */
export function porterStem(word: string): string {
  const lower = word.toLowerCase();
  const irregular = IRREGULAR.get(lower);
  if (irregular !== undefined) return irregular;
  if (lower.length <= 2) return lower;
  return step5(step4(step3(step2(step1c(step1b(step1a(lower)))))));
}
