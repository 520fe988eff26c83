import type { AddedCountry, Correction } from "../types.js";
import { calendarOf, datedByYear } from "../added.js";

/** date-holidays has no calendar for Cambodia: the whole calendar is served from here. */
export const CAMBODIA: AddedCountry = { code: "KH", timezone: "Asia/Phnom_Penh", languages: ["km", "en"] };

const NAGER =
  "Transcribed from Nager.Date's Cambodia provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites only Wikipedia \"Public holidays in Cambodia\"; the government's yearly sub-decree on public holidays was not read offline.";
const LUNAR = `${NAGER} The dates of the Khmer lunar festivals are those Nager.Date computed with its Khmer lunar calendar for 2000-2049 (lunar_date: calculated), not the ones the government published; other years have none.`;

const holiday = calendarOf("KH", NAGER);

const ROYAL_PLOUGHING: Record<number, string> = {
  2000: "05-21", 2001: "05-11", 2002: "04-30", 2003: "05-19", 2004: "05-07", 2005: "05-26", 2006: "05-16",
  2007: "05-05", 2008: "05-23", 2009: "05-12", 2010: "05-02", 2011: "05-21", 2012: "05-09", 2013: "05-28",
  2014: "05-17", 2015: "05-06", 2016: "05-24", 2017: "05-14", 2018: "05-03", 2019: "05-22", 2020: "05-10",
  2021: "04-30", 2022: "05-19", 2023: "05-08", 2024: "05-26", 2025: "05-15", 2026: "05-05", 2027: "05-24",
  2028: "05-12", 2029: "05-01", 2030: "05-20", 2031: "05-10", 2032: "05-28", 2033: "05-17", 2034: "05-06",
  2035: "05-25", 2036: "05-14", 2037: "05-03", 2038: "05-22", 2039: "05-11", 2040: "04-29", 2041: "05-18",
  2042: "05-08", 2043: "05-27", 2044: "05-15", 2045: "05-04", 2046: "05-23", 2047: "05-13", 2048: "05-01",
  2049: "05-20"
};
const PCHUM_BEN: Record<number, string> = {
  2000: "09-27", 2001: "09-16", 2002: "10-05", 2003: "09-24", 2004: "10-12", 2005: "10-02", 2006: "09-21",
  2007: "10-10", 2008: "09-28", 2009: "09-18", 2010: "10-07", 2011: "09-26", 2012: "10-14", 2013: "10-03",
  2014: "09-22", 2015: "10-11", 2016: "09-30", 2017: "09-19", 2018: "10-08", 2019: "09-27", 2020: "09-16",
  2021: "10-05", 2022: "09-24", 2023: "10-13", 2024: "10-01", 2025: "09-21", 2026: "10-10", 2027: "09-29",
  2028: "09-17", 2029: "10-06", 2030: "09-26", 2031: "10-15", 2032: "10-03", 2033: "09-22", 2034: "10-11",
  2035: "10-01", 2036: "09-19", 2037: "10-08", 2038: "09-27", 2039: "09-16", 2040: "10-04", 2041: "09-24",
  2042: "10-13", 2043: "10-02", 2044: "09-20", 2045: "10-09", 2046: "09-29", 2047: "09-18", 2048: "10-06",
  2049: "09-25"
};
const WATER_FESTIVAL: Record<number, string> = {
  2000: "11-10", 2001: "10-30", 2002: "11-18", 2003: "11-07", 2004: "11-25", 2005: "11-15", 2006: "11-04",
  2007: "11-23", 2008: "11-11", 2009: "11-01", 2010: "11-20", 2011: "11-09", 2012: "11-27", 2013: "11-16",
  2014: "11-05", 2015: "11-24", 2016: "11-13", 2017: "11-02", 2018: "11-21", 2019: "11-10", 2020: "10-30",
  2021: "11-18", 2022: "11-07", 2023: "11-26", 2024: "11-14", 2025: "11-04", 2026: "11-23", 2027: "11-12",
  2028: "10-31", 2029: "11-19", 2030: "11-09", 2031: "11-28", 2032: "11-16", 2033: "11-05", 2034: "11-24",
  2035: "11-14", 2036: "11-02", 2037: "11-21", 2038: "11-10", 2039: "10-30", 2040: "11-17", 2041: "11-07",
  2042: "11-26", 2043: "11-15", 2044: "11-03", 2045: "11-22", 2046: "11-12", 2047: "11-01", 2048: "11-19",
  2049: "11-08"
};

const KHMER_NEW_YEAR = { en: "Khmer New Year", km: "ពិធីបុណ្យចូលឆ្នាំថ្មី ប្រពៃណីជាតិ" };

export const KH: Correction[] = [
  holiday("new-years-day", "01-01", { en: "New Year's Day", km: "ទិវាបុណ្យចូលឆ្នាំសកល" }),
  holiday("victory-over-genocide-day", "01-07", { en: "Victory over Genocide Day", km: "ទិវាជ័យជម្នះលើរបបប្រល័យពូជសាសន៍" }, {
    years: { from: 1980 },
    note: "Marks 7 January 1979; no earlier year has it.",
  }),
  holiday("womens-day", "03-08", { en: "International Women's Day", km: "ទិវានារីអន្តរជាតិ" }),
  holiday("khmer-new-year", "04-14 P3D", KHMER_NEW_YEAR, { years: { from: 2000, to: 2027 } }),
  holiday("khmer-new-year-2028", "2028-04-13 P3D", KHMER_NEW_YEAR),
  holiday("khmer-new-year-from-2029", "04-14 P3D", KHMER_NEW_YEAR, { years: { from: 2029, to: 2049 } }),
  holiday("labour-day", "05-01", { en: "Labour Day", km: "ទិវាពលកម្មអន្តរជាតិ" }),
  holiday("king-sihamoni-birthday", "05-14", { en: "King Sihamoni's Birthday", km: "ព្រះរាជពិធីបុណ្យចម្រើនព្រះជន្ម ព្រះករុណា នរោត្តម សីហមុនី" }, {
    years: { from: 2005 },
    note: "King Norodom Sihamoni was crowned on 29 October 2004.",
  }),
  holiday("queen-mother-birthday", "06-18", { en: "Queen Mother's Birthday", km: "ព្រះរាជពិធីបុណ្យចម្រើនព្រះជន្ម សម្តេចព្រះមហាក្សត្រី នរោត្តម មុនិនាថ សីហនុ" }),
  holiday("constitution-day", "09-24", { en: "Constitution Day", km: "ទិវាប្រកាសរដ្ឋធម្មនុញ្ញ" }, {
    years: { from: 1994 },
    note: "The constitution was proclaimed on 24 September 1993.",
  }),
  holiday("king-father-commemoration-day", "10-15", { en: "Commemoration Day of the King's Father", km: "ព្រះរាជពិធីគោរពព្រះវិញ្ញាណក្ខន្ធព្រះករុណាព្រះបាទសម្ដេចព្រះ នរោត្ដម សីហនុ" }, {
    years: { from: 2013 },
    note: "King Father Norodom Sihanouk died on 15 October 2012.",
  }),
  holiday("king-sihamoni-coronation-day", "10-29", { en: "Coronation Day of King Sihamoni", km: "ព្រះរាជពិធីគ្រងព្រះបរមរាជសម្បត្តិរបស់ព្រះករុណាព្រះបាទសម្ដេចព្រះបរមនាថ នរោត្ដម សីហមុនី" }, {
    years: { from: 2005 },
  }),
  holiday("independence-day", "11-09", { en: "National Independence Day", km: "ទិវាបុណ្យឯករាជ្យជាតិ" }),
  holiday("peace-day", "12-29", { en: "Cambodia Peace Day", km: "ទិវាសន្តិភាពនៅកម្ពុជា" }),
  ...datedByYear(holiday, "royal-ploughing-ceremony", ROYAL_PLOUGHING, 1, { en: "Royal Ploughing Ceremony", km: "ព្រះរាជពិធីច្រត់ព្រះនង្គ័ល" }, { lunarDate: "calculated", source: LUNAR }),
  ...datedByYear(holiday, "pchum-ben", PCHUM_BEN, 3, { en: "Pchum Ben", km: "ពិធីបុណ្យភ្ផុំបិណ្ឌ" }, { lunarDate: "calculated", source: LUNAR }),
  ...datedByYear(holiday, "water-festival", WATER_FESTIVAL, 3, { en: "Water Festival", km: "ពិធីបុណ្យអុំទូក បណ្ដែតប្រទីប អកអំបុក និងសំពះព្រះខែ" }, { lunarDate: "calculated", source: LUNAR }),
];
