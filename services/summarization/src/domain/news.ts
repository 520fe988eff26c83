/**
 * Whether a text reads like a news report, which decides how much the summary trusts the order of its sentences:
 * news writes its facts first (the inverted pyramid), so its lead is its best summary; reviews, scholarly abstracts
 * and personal writing do not. On the development splits (docs/performance/summarization.md) the rule below holds
 * 74 of 75 CNN/DailyMail articles for news, and 1 of 100 review sets and 11 of 619 paper abstracts.
 *
 * A text is news-like when either
 * - at least 2 of its sentences, and 10 % of them (5 % when under a fifth speak in the first person singular), carry a
 *   reporting cue: attribution ("said", "according to", "a déclaré", "заявил", "表示") or a relative date ("on
 *   Tuesday", "yesterday", "last week"); or
 * - 9 % or more of the words inside its sentences are capitalized (names: people, places, teams, institutions) while
 *   under 15 % of its sentences speak as "I" and under 25 % as "we" (not for German, which capitalizes every noun,
 *   nor Chinese, which has no capitals).
 * First-person words inside quotation marks do not count: news quotes people.
 */
import type { Language } from "./languages.js";

interface Lexicon {
  /** Attribution and relative dates; phrases allowed. */
  cues: string[];
  /** First person singular and plural. */
  i: string[];
  we: string[];
}

const LEXICONS: Record<Language, Lexicon> = {
  en: {
    cues: [
      "said",
      "says",
      "told",
      "according to",
      "announced",
      "reported",
      "added",
      "claimed",
      "revealed",
      "insisted",
      "confirmed",
      "explained",
      "warned",
      "stated",
      "monday",
      "tuesday",
      "wednesday",
      "thursday",
      "friday",
      "saturday",
      "sunday",
      "yesterday",
      "last week",
      "last month",
      "last year",
      "last night",
      "this week",
      "earlier this",
    ],
    i: ["i", "me", "my", "mine"],
    we: ["we", "us", "our", "ours"],
  },
  es: {
    cues: [
      "dijo",
      "afirmó",
      "declaró",
      "aseguró",
      "explicó",
      "señaló",
      "anunció",
      "informó",
      "añadió",
      "según",
      "lunes",
      "martes",
      "miércoles",
      "jueves",
      "viernes",
      "sábado",
      "domingo",
      "ayer",
      "la semana pasada",
      "el mes pasado",
    ],
    i: ["yo", "mi", "mis", "conmigo"],
    we: ["nosotros", "nosotras", "nuestro", "nuestra", "nuestros", "nuestras"],
  },
  fr: {
    cues: [
      "a déclaré",
      "a dit",
      "a affirmé",
      "a expliqué",
      "a indiqué",
      "a annoncé",
      "a ajouté",
      "a précisé",
      "selon",
      "lundi",
      "mardi",
      "mercredi",
      "jeudi",
      "vendredi",
      "samedi",
      "dimanche",
      "hier",
      "la semaine dernière",
    ],
    i: ["je", "j", "moi", "mon", "ma", "mes"],
    we: ["nous", "notre", "nos"],
  },
  de: {
    cues: [
      "sagte",
      "erklärte",
      "teilte",
      "betonte",
      "berichtete",
      "kündigte",
      "laut",
      "zufolge",
      "montag",
      "dienstag",
      "mittwoch",
      "donnerstag",
      "freitag",
      "samstag",
      "sonntag",
      "gestern",
      "vergangene woche",
      "letzte woche",
    ],
    i: ["ich", "mich", "mir", "mein", "meine", "meinen", "meinem", "meiner"],
    we: ["wir", "uns", "unser", "unsere", "unseren", "unserem", "unserer"],
  },
  pt: {
    cues: [
      "disse",
      "afirmou",
      "declarou",
      "explicou",
      "anunciou",
      "informou",
      "acrescentou",
      "segundo",
      "de acordo com",
      "segunda-feira",
      "terça-feira",
      "quarta-feira",
      "quinta-feira",
      "sexta-feira",
      "sábado",
      "domingo",
      "ontem",
      "semana passada",
    ],
    i: ["eu", "meu", "minha", "meus", "minhas", "comigo"],
    we: ["nós", "nosso", "nossa", "nossos", "nossas"],
  },
  it: {
    cues: [
      "ha detto",
      "ha dichiarato",
      "ha affermato",
      "ha spiegato",
      "ha annunciato",
      "ha aggiunto",
      "ha sottolineato",
      "secondo",
      "lunedì",
      "martedì",
      "mercoledì",
      "giovedì",
      "venerdì",
      "sabato",
      "domenica",
      "ieri",
      "la settimana scorsa",
    ],
    i: ["io", "mio", "mia", "miei", "mie"],
    we: ["noi", "nostro", "nostra", "nostri", "nostre"],
  },
  nl: {
    cues: [
      "zei",
      "zegt",
      "verklaarde",
      "volgens",
      "liet weten",
      "meldde",
      "aldus",
      "maandag",
      "dinsdag",
      "woensdag",
      "donderdag",
      "vrijdag",
      "zaterdag",
      "zondag",
      "gisteren",
      "vorige week",
    ],
    i: ["ik", "mij", "mijn"],
    we: ["wij", "ons", "onze"],
  },
  ru: {
    cues: [
      "сказал",
      "сказала",
      "заявил",
      "заявила",
      "сообщил",
      "сообщила",
      "отметил",
      "отметила",
      "добавил",
      "добавила",
      "по словам",
      "по данным",
      "в понедельник",
      "во вторник",
      "в среду",
      "в четверг",
      "в пятницу",
      "в субботу",
      "в воскресенье",
      "вчера",
      "на прошлой неделе",
    ],
    i: ["я", "меня", "мне", "мной", "мой", "моя", "моё", "мои"],
    we: ["мы", "нас", "нам", "нами", "наш", "наша", "наше", "наши"],
  },
  zh: {
    cues: ["表示", "指出", "宣布", "透露", "报道", "据", "周一", "周二", "周三", "周四", "周五", "周六", "周日", "星期", "昨天", "昨日", "上周"],
    i: ["我"],
    we: ["我们"],
  },
};

/** Languages whose capitals mark names (German capitalizes every noun; Chinese has no case). */
const NAMES_BY_CAPITALS = new Set<Language>(["en", "es", "fr", "pt", "it", "nl", "ru"]);

const NOT_WORD = "[^\\p{L}\\p{N}]";

/**
 * A matcher of any of `words` as whole words (in Chinese, anywhere): in any case, or (pronouns) as written or
 * capitalized only, so that "US" (the country) is not "us".
 */
function matcher(words: string[], language: Language, anyCase: boolean): RegExp {
  const forms = anyCase ? words : words.flatMap((w) => [w, w.charAt(0).toLocaleUpperCase(language) + w.slice(1)]);
  const alternatives = [...new Set(forms)].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (language === "zh") return new RegExp(alternatives.join("|"), "u");
  return new RegExp(`(?:^|${NOT_WORD})(?:${alternatives.join("|")})(?=$|${NOT_WORD})`, anyCase ? "iu" : "u");
}

/** Chinese "我" alone, not the "我" of "我们". */
const ZH_I = /我(?!们)/u;

const MATCHERS = new Map(
  (Object.entries(LEXICONS) as [Language, Lexicon][]).map(([language, lexicon]) => [
    language,
    {
      cue: matcher(lexicon.cues, language, true),
      i: language === "zh" ? ZH_I : matcher(lexicon.i, language, false),
      we: matcher(lexicon.we, language, false),
    },
  ]),
);

/**
 * Quoted speech: "...", “...”, «...», „...“, 「...」, 『...』, ‘...’ and '...' opened at a word's start.
 * A quote runs to the nearest opening or closing mark, so a run of unclosed openers costs linear time.
 */
const QUOTED = /"[^"]*"|“[^“”]*”|«[^«»]*»|„[^„“”]*[“”]|「[^「」]*」|『[^『』]*』|‘[^‘’]*’|(?<![\p{L}\p{N}])'[^']*'(?![\p{L}\p{N}])/gu;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const STARTS_UPPER = /^\p{Lu}/u;
const STARTS_LETTER = /^\p{L}/u;

interface NewsSignals {
  sentences: number;
  cueSentences: number;
  /** Share of sentences with "I" (outside quotes). */
  firstPersonSingular: number;
  /** Share of sentences with "we" (outside quotes). */
  firstPersonPlural: number;
  /** Share of capitalized words among the words after each sentence's first; null where capitals do not mark names. */
  capitalized: number | null;
}

export function newsSignals(sentences: readonly string[], language: Language): NewsSignals {
  const match = MATCHERS.get(language)!;
  let cueSentences = 0;
  let singular = 0;
  let plural = 0;
  let inner = 0;
  let capitalized = 0;
  for (const sentence of sentences) {
    if (match.cue.test(sentence)) cueSentences += 1;
    const unquoted = sentence.replace(QUOTED, " ");
    if (match.i.test(unquoted)) singular += 1;
    if (match.we.test(unquoted)) plural += 1;
    const words = (sentence.match(WORD) ?? []).slice(1).filter((w) => STARTS_LETTER.test(w));
    inner += words.length;
    capitalized += words.filter((w) => STARTS_UPPER.test(w)).length;
  }
  const n = Math.max(sentences.length, 1);
  return {
    sentences: sentences.length,
    cueSentences,
    firstPersonSingular: singular / n,
    firstPersonPlural: plural / n,
    capitalized: NAMES_BY_CAPITALS.has(language) ? capitalized / Math.max(inner, 1) : null,
  };
}

export function looksLikeNews(sentences: readonly string[], language: Language): boolean {
  const s = newsSignals(sentences, language);
  const cueShare = s.cueSentences / Math.max(s.sentences, 1);
  const reported = s.cueSentences >= 2 && (cueShare >= 0.1 || (cueShare >= 0.05 && s.firstPersonSingular < 0.2));
  const namesNotPersonal = s.capitalized !== null && s.capitalized >= 0.09 && s.firstPersonSingular < 0.15 && s.firstPersonPlural < 0.25;
  return reported || namesNotPersonal;
}
