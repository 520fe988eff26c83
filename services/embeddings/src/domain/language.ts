/**
 * Is a text English? The English-only models embed any text, but a text in another language gets a vector that
 * matches nothing in its own meaning: the service says so rather than pretend. The test is built to stay silent on
 * short English texts (a trigram model alone calls "How do I reset my password?" Portuguese):
 *
 * 1. Script: when fewer than half of the letters are Latin, the text is not English (franc names the language).
 * 2. Function words: a text holding at least two function words of one of eight common Latin-script languages, and
 *    more than twice as many as English ones, is in that language ("Le chat est sur le canapé": le, est, sur, le),
 *    unless they are all particles of names ("Juan de la Cruz", "Marguerite De La Motte" are English text).
 * 3. Long texts (200 letters and more) almost free of English function words: franc's trigram model decides.
 *
 * Anything else counts as English: a short title or a list of names carries too little to judge.
 */
import { franc, francAll } from "franc-min";

/** ISO 639-3 codes, as franc gives them. */
interface DetectedLanguage {
  code: string;
  name: string;
}

const SAMPLE_CHARS = 2_000;
const MIN_LETTERS_FOR_TRIGRAMS = 200;
/** Below this share of English function words among the words, a long text is checked by franc. */
const ENGLISH_FUNCTION_WORD_SHARE = 0.05;

const ENGLISH = new Set(
  (
    "the a an is are was were be been of to in on at for with by from and or but not this that these those it its i you he she we they " +
    "my your his her our their me him us them do does did how what where when why who which will would can could should have has had " +
    "there here as if so than then all any some no about over into up out just also very"
  ).split(" "),
);

/** Frequent function words that are not also English words. */
const FUNCTION_WORDS: Record<string, ReadonlySet<string>> = {
  fra: new Set(
    "le la les des du est sont une et sur dans pour avec pas que qui ce cette il elle nous vous ils au aux mais ou très je tu ne se sa son ses leur chez été être avoir était un ces où".split(
      " ",
    ),
  ),
  deu: new Set(
    "der die das und ist nicht ein eine einen dem den des mit auf für von zu sich auch ich sie wir ihr es im am wie oder aber wird sind hat haben noch nach bei aus über schon dass".split(
      " ",
    ),
  ),
  spa: new Set(
    "el la los las de del que y en un una es son por para con se su sus lo al como más pero está este esta muy también sobre hay yo tú él ella".split(" "),
  ),
  ita: new Set("il lo la gli le di del della che e è un una per con non sono si da nel nella al alla ma come anche più questo questa sul sulla".split(" ")),
  por: new Set("o os de do da dos das que e é um uma em na nos nas para com não se por mais mas como ao está são muito também onde".split(" ")),
  nld: new Set("de het een en van dat die niet op te zijn voor met als er maar om ook aan bij hij zij wij ik je naar wordt nog dit deze waar".split(" ")),
  swe: new Set("och att det som en ett är på för med av den till inte har om jag var ska eller men från sig kan".split(" ")),
  pol: new Set("i w z na nie się do że jest jak co to ale po od za tak przez dla czy już jego jej być".split(" ")),
};

/** Words that also begin names in English text: alone, they prove nothing. */
const NAME_PARTICLES = new Set("de la le da di del della van von der den du des dos das el".split(" "));

const LETTER = /\p{L}/gu;
const LATIN = /\p{Script=Latin}/gu;
const WORD = /[\p{L}\p{M}]+/gu;
const names = new Intl.DisplayNames(["en"], { type: "language" });

function nameOf(code: string): string {
  const name = names.of(code);
  return name && name !== code && name !== "root" ? name : code;
}

/** The language of a text that is not English, or null (English, or too little to tell). */
export function detectNonEnglish(text: string): DetectedLanguage | null {
  // Addresses are no language's words ("https://en.wikipedia.org/wiki/Ella...").
  const sample = text.slice(0, SAMPLE_CHARS).replace(/\b(?:https?:\/\/|www\.)\S*/gi, " ");
  const letters = sample.match(LETTER)?.length ?? 0;
  if (letters < 2) return null;
  const latin = sample.match(LATIN)?.length ?? 0;
  if (latin / letters < 0.5) {
    const code = franc(sample, { minLength: 1 });
    return code === "und" ? { code: "und", name: "a script other than Latin" } : { code, name: nameOf(code) };
  }

  const words = sample.toLowerCase().match(WORD) ?? [];
  const english = words.filter((word) => ENGLISH.has(word)).length;
  let best: { code: string; hits: number } | null = null;
  for (const [code, list] of Object.entries(FUNCTION_WORDS)) {
    const found = words.filter((word) => list.has(word));
    const hits = found.some((word) => !NAME_PARTICLES.has(word)) ? found.length : 0;
    if (!best || hits > best.hits) best = { code, hits };
  }
  if (best && best.hits >= 2 && best.hits > 2 * english) {
    // Several languages share words (de, la, que): franc names the language among those that scored as high.
    const hitsOf = (list: ReadonlySet<string>) => words.filter((word) => list.has(word)).length;
    const tied = Object.entries(FUNCTION_WORDS)
      .filter(([, list]) => hitsOf(list) === best.hits)
      .map(([code]) => code);
    const code = tied.length > 1 ? franc(sample, { only: tied, minLength: 1 }) : best.code;
    const chosen = code === "und" ? best.code : code;
    return { code: chosen, name: nameOf(chosen) };
  }

  if (letters >= MIN_LETTERS_FOR_TRIGRAMS && english / Math.max(1, words.length) < ENGLISH_FUNCTION_WORD_SHARE) {
    const scores = francAll(sample, { minLength: 10 });
    const [top] = scores;
    const englishScore = scores.find(([code]) => code === "eng")?.[1] ?? 0;
    if (top && top[0] !== "eng" && top[0] !== "und" && englishScore < 0.8) return { code: top[0], name: nameOf(top[0]) };
  }
  return null;
}
