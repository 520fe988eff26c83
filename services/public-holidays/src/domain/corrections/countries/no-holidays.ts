import type { AddedCountry } from "../types.js";

/**
 * Territories without a permanent population or a holiday law of their own: Nager.Date's providers for them
 * return no holidays (citing only Wikipedia's article on each), and so does this service: an empty list, not a 404.
 * Bouvet Island and Heard and McDonald Islands have no IANA time zone; their dates are given in UTC.
 */
export const TERRITORIES_WITHOUT_HOLIDAYS: AddedCountry[] = [
  { code: "AQ", timezone: "Antarctica/McMurdo", languages: ["en"] },
  { code: "BV", timezone: "UTC", languages: ["no"] },
  { code: "GS", timezone: "Atlantic/South_Georgia", languages: ["en"] },
  { code: "HM", timezone: "UTC", languages: ["en"] },
  { code: "TF", timezone: "Indian/Kerguelen", languages: ["fr"] },
  { code: "UM", timezone: "Pacific/Midway", languages: ["en"] },
];
