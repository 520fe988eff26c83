/**
 * Writes src/domain/corrections/countries/tr-calculated-eids.ts: the first days of Ramazan Bayramı and Kurban Bayramı
 * for the years after the last Diyanet calendar the service holds as observed, by the criterion Diyanet computes its
 * calendar with (scripts/diyanet-criterion.ts).
 *
 *   bash scripts/pnpm.sh exec tsx services/public-holidays/scripts/diyanet-eids.ts
 */
import { writeFileSync } from "node:fs";
import { monthStarts } from "../src/domain/calendar-tables.js";
import type { EidFirstDay } from "../src/domain/corrections/countries/tr-calculated-eids.js";
import { monthStart } from "./diyanet-criterion.js";

export const FIRST_CALCULATED_YEAR = 2027;
export const LAST_CALCULATED_YEAR = 2100;

const DAY = 86_400_000;
const SHAWWAL = "10";
const DHU_AL_HIJJAH = "12";

/** Both Eids of every year from `from` to `to`, by the criterion; the Umm al-Qura calendar only says which new moon. */
export function calculatedEids(from: number, to: number): EidFirstDay[] {
  const eids: EidFirstDay[] = [];
  // A month's conjunction lies within three days of its Umm al-Qura first day; the year before catches a January Eid.
  for (const { date, month } of monthStarts("islamic-umalqura", from - 1, to)) {
    if (month !== SHAWWAL && month !== DHU_AL_HIJJAH) continue;
    const fitr = month === SHAWWAL;
    const start = Date.parse(monthStart(date).firstDay);
    const firstDay = new Date(fitr ? start : start + 9 * DAY).toISOString().slice(0, 10);
    const year = Number(firstDay.slice(0, 4));
    if (year >= from && year <= to) eids.push({ kind: fitr ? "fitr" : "adha", firstDay });
  }
  return eids;
}

function tableSource(eids: EidFirstDay[]): string {
  const rows = eids.map(({ kind, firstDay }) => `  { kind: "${kind}", firstDay: "${firstDay}" },`).join("\n");
  return `// Written by scripts/diyanet-eids.ts (Diyanet's criterion, scripts/diyanet-criterion.ts): run it again rather than edit.

/** The first day of Ramazan Bayramı (fitr: 1 Shawwal) or Kurban Bayramı (adha: 10 Dhu al-Hijjah). */
export interface EidFirstDay {
  kind: "fitr" | "adha";
  firstDay: string;
}

export const CALCULATED_EIDS: readonly EidFirstDay[] = [
${rows}
];
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const eids = calculatedEids(FIRST_CALCULATED_YEAR, LAST_CALCULATED_YEAR);
  writeFileSync(new URL("../src/domain/corrections/countries/tr-calculated-eids.ts", import.meta.url), tableSource(eids));
  console.log(`${eids.length} Eids, ${FIRST_CALCULATED_YEAR}-${LAST_CALCULATED_YEAR}`);
}
