/**
 * Compares this service's holidays with the public-holiday facts that Nager.Date's unit tests assert
 * (nager-date-facts.json, transcribed as data with Nager.Date's MIT notice), offline and in process.
 *
 *   bash scripts/pnpm.sh exec tsx bench/public-holidays/compare-nager.ts            # with the corrections layer
 *   bash scripts/pnpm.sh exec tsx bench/public-holidays/compare-nager.ts --engine   # date-holidays alone (before)
 *
 * Prints one line per disagreement, then per country and in total: facts compared, agreements and the
 * agreement rate, per year, and in total for all asserted years and for 2000-2030.
 */
import { readFileSync } from "node:fs";
import { HolidayEngine } from "../../services/public-holidays/src/domain/engine.js";
import { CORRECTIONS } from "../../services/public-holidays/src/domain/corrections/index.js";
import { select } from "../../services/public-holidays/src/domain/selection.js";
import type { Holiday, HolidayType } from "../../services/public-holidays/src/domain/types.js";

type Fact =
  | { country: string; test: string; kind: "public-holiday"; date: string; expected: boolean; subdivision?: string; types?: HolidayType[] }
  | { country: string; test: string; kind: "holiday-absent"; year: number; name: string }
  | { country: string; test: string; kind: "holiday-list"; year: number; dates: string[] }
  | { country: string; test: string; kind: "holiday-starts"; date: string; name: string }
  | { country: string; test: string; kind: "subdivisions"; date: string; name: string; subdivisions: string[] };

/** One compared fact: a date of a country in a year, agreed or not, and what each side says. */
interface Outcome {
  country: string;
  year: number;
  agrees: boolean;
  line: string;
}

const engineOnly = process.argv.includes("--engine");
const engine = new HolidayEngine(engineOnly ? [] : CORRECTIONS);
const facts: Fact[] = JSON.parse(readFileSync(new URL("./nager-date-facts.json", import.meta.url), "utf8")).facts;

const years = new Map<string, Holiday[]>();
async function publicHolidays(country: string, year: number, types: HolidayType[] = ["public"]): Promise<Holiday[]> {
  const key = `${country}:${year}`;
  if (!years.has(key)) years.set(key, engine.getCountry(country) ? await engine.holidaysOfYear(country, year) : []);
  return select(years.get(key)!, { types, subdivision: null });
}

function keptIn(holiday: Holiday, subdivision: string | undefined): boolean {
  if (!subdivision) return holiday.global;
  if (subdivision === "any") return true;
  if (holiday.global) return !holiday.except_counties?.includes(subdivision);
  return holiday.counties?.includes(subdivision) ?? false;
}

function daysOf(holiday: Holiday): string[] {
  const days: string[] = [];
  for (let day = new Date(`${holiday.date}T00:00:00Z`); ; day.setUTCDate(day.getUTCDate() + 1)) {
    const iso = day.toISOString().slice(0, 10);
    if (iso > holiday.end_date) return days;
    days.push(iso);
  }
}

async function judge(fact: Fact): Promise<Outcome[]> {
  const where = `${fact.country} ${fact.test}`;
  if (fact.kind === "holiday-list") {
    const ours = new Set(
      (await publicHolidays(fact.country, fact.year))
        .filter((holiday) => holiday.global && !holiday.substitute)
        .flatMap(daysOf)
        .filter((day) => day.startsWith(String(fact.year))),
    );
    const theirs = new Set(fact.dates);
    return [...new Set([...ours, ...theirs])].sort().map((day) => ({
      country: fact.country,
      year: fact.year,
      agrees: ours.has(day) && theirs.has(day),
      line: `${where}: ${day} ${theirs.has(day) ? "listed by Nager.Date" : "not listed by Nager.Date"}, ${ours.has(day) ? "a national public holiday here" : "not a national public holiday here"}`,
    }));
  }
  if (fact.kind === "holiday-absent") {
    const named = (await publicHolidays(fact.country, fact.year)).filter((holiday) => holiday.name.toLowerCase().includes(fact.name.toLowerCase()));
    return [
      {
        country: fact.country,
        year: fact.year,
        agrees: named.length === 0,
        line: `${where}: ${fact.year} Nager.Date: no ${fact.name} holiday; here: ${named.map((holiday) => holiday.date).join(", ") || "none"}`,
      },
    ];
  }
  const year = Number(fact.date.slice(0, 4));
  const holidays = await publicHolidays(fact.country, year, fact.kind === "public-holiday" ? fact.types : undefined);
  const outcome = (agrees: boolean, detail: string): Outcome[] => [{ country: fact.country, year, agrees, line: `${where}: ${fact.date} ${detail}` }];
  if (fact.kind === "public-holiday") {
    const ours = holidays.filter((holiday) => daysOf(holiday).includes(fact.date) && keptIn(holiday, fact.subdivision));
    const area = fact.subdivision ?? "nationally";
    return outcome(
      ours.length > 0 === fact.expected,
      `Nager.Date: ${fact.expected ? "" : "no "}${(fact.types ?? ["public"]).join("/")} holiday ${area}; here: ${ours.map((holiday) => holiday.name).join(", ") || "none"}`,
    );
  }
  const named = holidays.filter((holiday) => holiday.name.toLowerCase().includes(fact.name.toLowerCase()));
  if (fact.kind === "holiday-starts") {
    return outcome(
      named.some((holiday) => holiday.date === fact.date),
      `Nager.Date: ${fact.name} begins; here: ${named.map((holiday) => holiday.date).join(", ") || "none"}`,
    );
  }
  const country = engine.getCountry(fact.country)!;
  const onDay = named.filter((holiday) => holiday.date === fact.date);
  const ours = new Set(
    onDay.flatMap((holiday) =>
      holiday.global
        ? country.subdivisions.map((subdivision) => subdivision.code).filter((code) => !holiday.except_counties?.includes(code))
        : (holiday.counties ?? []),
    ),
  );
  const expected = [...fact.subdivisions].sort().join(",");
  const actual = [...ours].sort().join(",");
  return outcome(expected === actual, `${fact.name} kept in: Nager.Date ${expected || "none"}; here ${actual || "none"}`);
}

function rate(outcomes: Outcome[]): string {
  const agreed = outcomes.filter((outcome) => outcome.agrees).length;
  const percent = outcomes.length === 0 ? 0 : (100 * agreed) / outcomes.length;
  return `${agreed}/${outcomes.length} (${percent.toFixed(1)} %)`;
}

const outcomes = (await Promise.all(facts.map(judge))).flat();
console.log(`# Nager.Date unit-test facts vs ${engineOnly ? "date-holidays alone" : "date-holidays + corrections"}\n`);
console.log("## Disagreements\n");
for (const outcome of outcomes.filter((candidate) => !candidate.agrees)) console.log(`- ${outcome.line}`);
console.log("\n## Per country (all asserted years | 2000-2030)\n");
const inRange = (outcome: Outcome) => outcome.year >= 2000 && outcome.year <= 2030;
for (const country of [...new Set(outcomes.map((outcome) => outcome.country))].sort()) {
  const mine = outcomes.filter((outcome) => outcome.country === country);
  console.log(`${country}: ${rate(mine)} | ${rate(mine.filter(inRange))}`);
}
console.log("\n## Per year\n");
for (const year of [...new Set(outcomes.map((outcome) => outcome.year))].sort()) {
  console.log(`${year}: ${rate(outcomes.filter((outcome) => outcome.year === year))}`);
}
const asserted = outcomes.map((outcome) => outcome.year);
console.log(`\n## Total\n`);
console.log(`countries: ${new Set(outcomes.map((outcome) => outcome.country)).size}, facts asserted for ${Math.min(...asserted)}-${Math.max(...asserted)}`);
console.log(`all years: ${rate(outcomes)}`);
console.log(`2000-2030: ${rate(outcomes.filter(inRange))}`);
