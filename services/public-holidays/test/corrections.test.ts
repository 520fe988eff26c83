import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService } from "@apiplat/testing";
import { megaCaller, type Caller, type Holiday } from "./helpers.js";
import service from "../src/service.js";
import { CORRECTIONS } from "../src/domain/corrections/index.js";

/**
 * Every correction over date-holidays, pinned over HTTP: the day inside its validity years (with the source
 * the API returns) and the days just outside them, where the engine's answer stands.
 */
let h: Caller;
beforeAll(async () => {
  h = await megaCaller(await startService(service, { settings: { warmUp: false } }));
});
afterAll(async () => {
  await h?.close();
});

/** The public holidays in force on a date, nationally or in a subdivision. */
async function publicOn(country: string, date: string, subdivision?: string): Promise<Holiday[]> {
  const area = subdivision ? `&subdivision=${subdivision}` : "";
  const { status, data } = await h.get(`/is-holiday?country=${country}&date=${date}${area}`);
  expect(status).toBe(200);
  return data.holidays;
}

/** The one public holiday on the date, which must come from a correction whose source names `citation`. */
async function expectCorrected(country: string, date: string, name: string, citation: string, subdivision?: string) {
  const holidays = await publicOn(country, date, subdivision);
  expect(holidays.map((holiday) => holiday.name)).toEqual([name]);
  expect(holidays[0].source).toContain(citation);
  return holidays[0];
}

async function expectNoPublicHoliday(country: string, date: string, subdivision?: string) {
  expect(await publicOn(country, date, subdivision)).toEqual([]);
}

describe("the corrections table", () => {
  it("gives every entry an id of its own, a known action and a source", () => {
    expect(new Set(CORRECTIONS.map((correction) => correction.id)).size).toBe(CORRECTIONS.length);
    for (const correction of CORRECTIONS) {
      expect(["add", "remove", "nationwide"]).toContain(correction.action);
      expect(correction.source.length).toBeGreaterThan(20);
      if (correction.action === "add") expect(correction.name?.en).toBeTruthy();
    }
  });
});

describe("Sweden: Whit Monday until 2004, National Day from 2005 (Lag 1989:253)", () => {
  it("Whit Monday is a public holiday in 2000 and 2004, not in 2005", async () => {
    await expectCorrected("SE", "2000-06-12", "Whit Monday", "Lag (1989:253)");
    const whitMonday = await expectCorrected("SE", "2004-05-31", "Whit Monday", "Lag (1989:253)");
    expect(whitMonday.local_name).toBe("Annandag pingst");
    await expectNoPublicHoliday("SE", "2005-05-16");
  });

  it("National Day is public from 2005 only (the engine's own rule)", async () => {
    await expectNoPublicHoliday("SE", "2004-06-06");
    expect((await publicOn("SE", "2005-06-06")).map((holiday) => holiday.source)).toEqual([null]);
  });
});

describe("Romania: 6 and 7 January are public holidays from 2024 (Codul muncii art. 139)", () => {
  it.each(["2023-01-06", "2023-01-07", "2017-01-06"])("%s is not a public holiday", async (date) => {
    await expectNoPublicHoliday("RO", date);
  });

  it.each([
    ["2024-01-06", "Epiphany"],
    ["2024-01-07", "Saint John the Baptist"],
  ])("%s is %s", async (date, name) => {
    expect((await publicOn("RO", date)).map((holiday) => holiday.name)).toEqual([name]);
  });
});

describe("Morocco: Amazigh New Year from 2024 (Royal Cabinet, 3 May 2023)", () => {
  it("14 January is public in 2024 and 2026, not in 2023", async () => {
    await expectNoPublicHoliday("MA", "2023-01-14");
    const amazigh = await expectCorrected("MA", "2024-01-14", "Amazigh New Year", "Royal Cabinet");
    expect(amazigh.local_name).toBe("رأس السنة الأمازيغية");
    await expectCorrected("MA", "2026-01-14", "Amazigh New Year", "Royal Cabinet");
  });
});

describe("Puerto Rico: Good Friday (1 L.P.R.A. § 71)", () => {
  it.each(["2017-04-14", "2026-04-03"])("%s is Good Friday", async (date) => {
    await expectCorrected("PR", date, "Good Friday", "L.P.R.A. § 71");
  });
});

describe("South Africa: Christmas 2022 on a Sunday (Public Holidays Act 36 of 1994, s. 2(1))", () => {
  it("Tuesday 27 December 2022 is a public holiday, 27 December 2023 is not", async () => {
    await expectCorrected("ZA", "2022-12-27", "Christmas Day (observed)", "Public Holidays Act 36 of 1994");
    await expectNoPublicHoliday("ZA", "2023-12-27");
  });
});

describe("Slovakia: Constitution Day a day of rest until 2024 (Act 241/1993 as amended)", () => {
  it("1 September is public in 2023 (engine) and 2024 (correction), not from 2025", async () => {
    expect((await publicOn("SK", "2023-09-01")).map((holiday) => holiday.source)).toEqual([null]);
    await expectCorrected("SK", "2024-09-01", "Constitution Day", "241/1993");
    await expectNoPublicHoliday("SK", "2025-09-01");
  });
});

describe("Isle of Man (Bank Holidays Act 1989)", () => {
  it("the last Monday in August is the Late Summer Bank Holiday", async () => {
    await expectCorrected("IM", "2017-08-28", "Late Summer Bank Holiday", "Bank Holidays Act 1989");
    await expectCorrected("IM", "2022-08-29", "Late Summer Bank Holiday", "Bank Holidays Act 1989");
    await expectNoPublicHoliday("IM", "2022-08-22");
  });

  it("Tynwald Day on a Sunday moves to the Monday", async () => {
    await expectNoPublicHoliday("IM", "2020-07-05");
    await expectCorrected("IM", "2020-07-06", "Tynwald Day", "Tynwald Day is 5 July");
    await expectCorrected("IM", "2021-07-05", "Tynwald Day", "Tynwald Day is 5 July");
  });

  it("TT Senior Race Day: 7 June 2019, none in June 2020 (moved to 28 August), the second Friday otherwise", async () => {
    await expectNoPublicHoliday("IM", "2019-06-14");
    await expectCorrected("IM", "2019-06-07", "Tourist Trophy, Senior Race Day", "Senior TT race day 2019");
    await expectNoPublicHoliday("IM", "2020-06-12");
    await expectCorrected("IM", "2020-08-28", "Bank holiday (moved from TT Senior Race Day)", "28 August 2020");
    expect((await publicOn("IM", "2018-06-08")).map(({ name, source }) => ({ name, source }))).toEqual([
      { name: "Tourist Trophy, Senior Race Day", source: null },
    ]);
    expect((await publicOn("IM", "2021-06-11")).map((holiday) => holiday.source)).toEqual([null]);
  });
});

describe("Latvia: Song and Dance Celebration and one-off days (holidays law as amended)", () => {
  it.each(["2018-07-08", "2018-07-09", "2023-07-09", "2023-07-10", "2018-09-24"])("%s is a public holiday", async (date) => {
    const [holiday] = await publicOn("LV", date);
    expect(holiday.source).toContain("Par svētku, atceres un atzīmējamām dienām");
  });

  it("2028: the planned closing day (Sunday 9 July) and the Monday after", async () => {
    await expectCorrected("LV", "2028-07-09", "Song and Dance Celebration closing day", "draft Cabinet order");
    await expectCorrected("LV", "2028-07-10", "Day after the Song and Dance Celebration", "in force 22 October 2014");
  });

  it.each(["2019-07-08", "2024-07-08", "2019-09-24", "2027-07-11", "2029-07-09"])("%s is not", async (date) => {
    await expectNoPublicHoliday("LV", date);
  });
});

describe("Denmark: Constitution Day is a bank closing day (Danmarks Nationalbank, Banklukkedage)", () => {
  it.each(["2019-06-05", "2026-06-05"])("%s is a bank holiday, not a public one nor an observance", async (date) => {
    const { data } = await h.get(`/is-holiday?country=DK&date=${date}&types=bank`);
    expect(data.holidays.map(({ name, local_name, types }) => ({ name, local_name, types }))).toEqual([
      { name: "Constitution Day", local_name: "Grundlovsdag", types: ["bank"] },
    ]);
    expect(data.holidays[0].source).toContain("Banklukkedage");
    await expectNoPublicHoliday("DK", date);
    const observances = await h.get(`/is-holiday?country=DK&date=${date}&types=observance`);
    expect(observances.data.holidays).toEqual([]);
  });
});

describe("Albania: Mother Teresa's Canonization Day (5 September) replaces 19 October from 2024 (Law 7651/1992 as amended)", () => {
  it("2023 keeps the engine's 19 October", async () => {
    expect((await publicOn("AL", "2023-10-19")).map(({ name, source }) => ({ name, source }))).toEqual([{ name: "Mother Teresa Day", source: null }]);
    await expectNoPublicHoliday("AL", "2023-09-05");
  });

  it("2024 and 2025: 5 September, no longer 19 October", async () => {
    const holiday = await expectCorrected("AL", "2024-09-05", "Mother Teresa Canonization Day", "7651");
    expect(holiday.local_name).toBe("Dita e Shenjtërimit të Nënë Terezës");
    await expectNoPublicHoliday("AL", "2024-10-19");
    await expectCorrected("AL", "2025-09-05", "Mother Teresa Canonization Day", "7651");
    await expectNoPublicHoliday("AL", "2025-10-20");
  });

  it("on a weekend it moves to the Monday (Saturday 5 September 2026)", async () => {
    const [monday] = await publicOn("AL", "2026-09-07");
    expect([monday.name, monday.substitute, monday.source]).toEqual([
      expect.stringContaining("Mother Teresa Canonization Day"),
      true,
      expect.stringContaining("7651"),
    ]);
  });
});

describe("United Kingdom: Scotland's World Cup bank holiday 2026", () => {
  it("15 June 2026 in Scotland only, and in no other year", async () => {
    const holiday = await expectCorrected("GB", "2026-06-15", "World Cup Bank Holiday", "gov.scot", "GB-SCT");
    expect(holiday.counties).toEqual(["GB-SCT"]);
    await expectNoPublicHoliday("GB", "2026-06-15", "GB-ENG");
    await expectNoPublicHoliday("GB", "2025-06-15", "GB-SCT");
    await expectNoPublicHoliday("GB", "2027-06-15", "GB-SCT");
  });
});

describe("Türkiye: Eid dates as observed (Law No. 2429, Diyanet calendar)", () => {
  async function eid(year: number, name: RegExp) {
    const { data } = await h.get(`/holidays?country=TR&year=${year}`);
    return data.holidays.filter((holiday) => name.test(holiday.name));
  }

  it("2016: Ramazan Bayramı 5-7 July and Kurban Bayramı 12-15 September, observed", async () => {
    const [fitr] = await eid(2016, /Eid al-Fitr/);
    expect([fitr.date, fitr.end_date, fitr.lunar_date]).toEqual(["2016-07-05", "2016-07-07", "observed"]);
    expect(fitr.local_name).toBe("Ramazan Bayramı");
    expect(fitr.source).toContain("Law No. 2429");
    const [adha] = await eid(2016, /Eid al-Adha/);
    expect([adha.date, adha.end_date, adha.lunar_date]).toEqual(["2016-09-12", "2016-09-15", "observed"]);
  });

  it("2010-2026 observed (Nager.Date's verified table), the engine's calculated dates before", async () => {
    const [fitr2010] = await eid(2010, /Eid al-Fitr/);
    expect([fitr2010.date, fitr2010.lunar_date]).toEqual(["2010-09-09", "observed"]);
    const [adha2015] = await eid(2015, /Eid al-Adha/);
    expect([adha2015.date, adha2015.end_date, adha2015.lunar_date]).toEqual(["2015-09-24", "2015-09-27", "observed"]);
    const [fitr2017] = await eid(2017, /Eid al-Fitr/);
    expect([fitr2017.date, fitr2017.lunar_date]).toEqual(["2017-06-25", "observed"]);
    const [adha2026] = await eid(2026, /Eid al-Adha/);
    expect([adha2026.date, adha2026.end_date, adha2026.lunar_date]).toEqual(["2026-05-27", "2026-05-30", "observed"]);
    expect(adha2026.source).toContain("verified");
    const [adha2009] = await eid(2009, /Eid al-Adha/);
    expect([adha2009.lunar_date, adha2009.source]).toEqual(["calculated", null]);
  });

  it("2027-2100 by Diyanet's criterion, calculated and cited: Kurban Bayramı 2036 a day after the engine's date", async () => {
    const [fitr2027] = await eid(2027, /Eid al-Fitr/);
    expect([fitr2027.date, fitr2027.end_date, fitr2027.lunar_date]).toEqual(["2027-03-09", "2027-03-11", "calculated"]);
    expect(fitr2027.source).toContain("Istanbul 2016");
    const [adha2036] = await eid(2036, /Eid al-Adha/);
    expect([adha2036.date, adha2036.end_date, adha2036.lunar_date]).toEqual(["2036-02-08", "2036-02-11", "calculated"]);
    expect((await eid(2065, /Eid al-Fitr/)).map((holiday) => holiday.date)).toEqual(["2065-01-08", "2065-12-28"]);
  });

  it("an Islamic holiday the engine computes says calculated (United Arab Emirates, Eid al-Fitr 2026)", async () => {
    const [eid] = await publicOn("AE", "2026-03-22");
    expect([eid.name, eid.date, eid.lunar_date, eid.source]).toEqual(["End of Ramadan (Eid al-Fitr)", "2026-03-20", "calculated", null]);
  });

  it("China 2026: Mid-Autumn (15th of the 8th lunar month) is calculated; Qingming, a solar term, is no lunar date", async () => {
    const { data } = await h.get("/holidays?country=CN&year=2026");
    const pick = (pattern: RegExp) => data.holidays.filter((holiday) => pattern.test(holiday.name)).map(({ date, lunar_date }) => [date, lunar_date]);
    expect(pick(/Mid-Autumn/)).toEqual([["2026-09-25", "calculated"]]);
    expect(pick(/Qingming|Tomb/)).toEqual([["2026-04-05", null]]);
  });

  it("non-lunar holidays carry lunar_date null", async () => {
    const [republicDay] = await publicOn("TR", "2016-10-29");
    expect(republicDay.lunar_date).toBeNull();
  });
});

describe("Papua New Guinea (not in date-holidays)", () => {
  const source = "Public Holidays Act (Chapter 321)";

  it("2021: the national public holidays, each with its source", async () => {
    const { status, data } = await h.get("/holidays?country=PG&year=2021");
    expect(status).toBe(200);
    expect(data.country_name).toBe("Papua New Guinea");
    expect(data.timezone).toBe("Pacific/Port_Moresby");
    expect(data.holidays.map(({ date, name }) => [date, name])).toEqual([
      ["2021-01-01", "New Year's Day"],
      ["2021-04-02", "Good Friday"],
      ["2021-04-03", "Holy Saturday"],
      ["2021-04-04", "Easter Sunday"],
      ["2021-04-05", "Easter Monday"],
      ["2021-06-14", "Queen's Birthday"],
      ["2021-07-23", "National Remembrance Day"],
      ["2021-08-26", "National Repentance Day"],
      ["2021-09-16", "Independence Day"],
      ["2021-12-25", "Christmas Day"],
      ["2021-12-26", "Boxing Day"],
    ]);
    for (const holiday of data.holidays) {
      expect(holiday.source).toContain(source);
      expect(holiday.source).toContain("not available offline");
    }
  });

  it("the sovereign's birthday is the King's from 2023; Repentance Day from 2011", async () => {
    await expectCorrected("PG", "2022-06-13", "Queen's Birthday", source);
    await expectCorrected("PG", "2023-06-12", "King's Birthday", source);
    await expectNoPublicHoliday("PG", "2010-08-26");
    await expectCorrected("PG", "2011-08-26", "National Repentance Day", source);
  });

  it("is listed by /countries without subdivisions", async () => {
    const { data } = await h.get("/countries");
    expect(data.countries.find((country) => country.code === "PG")).toEqual({
      code: "PG",
      name: "Papua New Guinea",
      timezone: "Pacific/Port_Moresby",
      languages: ["en"],
      subdivisions: [],
    });
  });
});

describe("Australia: Easter Sunday is a state holiday, state by state", () => {
  async function easterSunday(year: number, date: string) {
    const { data } = await h.get(`/holidays?country=AU&year=${year}`);
    return data.holidays.filter((holiday) => holiday.date === date && holiday.name === "Easter Sunday");
  }

  it.each([
    [2009, "2009-04-12", null],
    [2010, "2010-04-04", ["AU-NSW"]],
    [2015, "2015-04-05", ["AU-NSW"]],
    [2016, "2016-03-27", ["AU-ACT", "AU-NSW", "AU-VIC"]],
    [2021, "2021-04-04", ["AU-ACT", "AU-NSW", "AU-QLD", "AU-VIC"]],
    [2022, "2022-04-17", ["AU-ACT", "AU-NSW", "AU-QLD", "AU-VIC", "AU-WA"]],
    [2023, "2023-04-09", ["AU-ACT", "AU-NSW", "AU-NT", "AU-QLD", "AU-VIC", "AU-WA"]],
    [2024, "2024-03-31", ["AU-ACT", "AU-NSW", "AU-NT", "AU-QLD", "AU-SA", "AU-VIC", "AU-WA"]],
  ])("%i: kept in %j", async (year, date, counties) => {
    const holidays = await easterSunday(year, date as string);
    if (counties === null) {
      expect(holidays).toEqual([]);
      return;
    }
    expect(holidays).toHaveLength(1);
    expect([holidays[0].global, holidays[0].counties]).toEqual([false, counties]);
    expect(holidays[0].source).toContain("Easter Sunday is a public holiday from");
  });

  it("Tasmania never has it", async () => {
    expect(await publicOn("AU", "2024-03-31", "AU-TAS")).toEqual([]);
  });
});

describe("Brazil: Black Awareness Day national from 2024 (Lei nº 14.759/2023)", () => {
  async function blackAwarenessDay(year: number) {
    const { data } = await h.get(`/holidays?country=BR&year=${year}`);
    return data.holidays.filter((holiday) => holiday.date === `${year}-11-20` && holiday.local_name === "Dia da Consciência Negra");
  }

  it("holds in every state from 2024, citing the law", async () => {
    for (const year of [2024, 2030]) {
      const [day] = await blackAwarenessDay(year);
      expect(day).toMatchObject({ global: true, counties: null, except_counties: null });
      expect(day.source).toContain("Lei nº 14.759");
    }
  });

  it("in 2023 keeps the engine's answer: a holiday of the four states that had it, no source", async () => {
    expect(await blackAwarenessDay(2023)).toEqual([
      expect.objectContaining({ global: false, counties: ["BR-AM", "BR-MT", "BR-RJ", "BR-SP"], except_counties: null, source: null }),
    ]);
  });
});
