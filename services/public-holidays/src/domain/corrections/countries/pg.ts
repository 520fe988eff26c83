import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for Papua New Guinea: the whole calendar is served from here. */
export const PAPUA_NEW_GUINEA: AddedCountry = { code: "PG", timezone: "Pacific/Port_Moresby", languages: ["en"] };

const UNVERIFIED =
  'Public Holidays Act (Chapter 321) of Papua New Guinea, as amended; the Act\'s text and the National Gazette notices were not available offline when this entry was written, so the list follows the public record (Wikipedia, "Public holidays in Papua New Guinea"; the same list in Nager.Date), not the Act itself.';

const holiday = calendarOf("PG", UNVERIFIED);
const national = (id: string, rule: string, en: string, extra: Partial<Correction> = {}) => holiday(id, rule, { en }, extra);

export const PG: Correction[] = [
  national("new-years-day", "01-01", "New Year's Day"),
  national("good-friday", "easter -2", "Good Friday"),
  national("holy-saturday", "easter -1", "Holy Saturday"),
  national("easter-sunday", "easter", "Easter Sunday"),
  national("easter-monday", "easter 1", "Easter Monday"),
  national("queens-birthday", "2nd monday in June prior to 2023", "Queen's Birthday", { years: { to: 2022 } }),
  national("kings-birthday", "2nd monday in June since 2023", "King's Birthday", {
    years: { from: 2023 },
    note: "The sovereign's birthday holiday, renamed after the accession of Charles III (8 September 2022).",
  }),
  national("remembrance-day", "07-23", "National Remembrance Day"),
  national("repentance-day", "08-26", "National Repentance Day", {
    years: { from: 2011 },
    note: "Declared in 2011; the earlier years had no such day.",
  }),
  national("independence-day", "09-16", "Independence Day"),
  national("christmas-day", "12-25", "Christmas Day"),
  national("boxing-day", "12-26", "Boxing Day"),
];
