import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brief, megaCaller, type Caller } from "./helpers.js";
import { startService } from "@apiplat/testing";
import service from "../src/service.js";

let h: Caller;
beforeAll(async () => {
  h = await megaCaller(await startService(service, { settings: { warmUp: false } }));
});
afterAll(async () => {
  await h?.close();
});

const national = <T extends { global: boolean }>(holidays: T[]) => holidays.filter((holiday) => holiday.global);

/** The fields of a US public holiday kept nationwide, everywhere and with no exception. */
const US_NATIONWIDE = { country_code: "US", global: true, counties: null, regions: null, except_counties: null, types: ["public"] };

describe("United States", () => {
  // Dates: U.S. Office of Personnel Management, "2025 Federal Holidays" (opm.gov, Pay & Leave > Federal Holidays).
  // Names are the ones served (OPM writes "Birthday of Martin Luther King, Jr." and "Juneteenth National Independence Day").
  it("2025: the eleven federal holidays are the national public holidays", async () => {
    const { status, data } = await h.get("/holidays?country=US&year=2025");
    expect(status).toBe(200);
    expect(data.country_code).toBe("US");
    expect(data.country_name).toBe("United States");
    expect(data.timezone).toBe("America/New_York");
    expect(data.year).toBe(2025);
    expect(data.types).toEqual(["public"]);
    expect(brief(national(data.holidays))).toEqual([
      { date: "2025-01-01", name: "New Year's Day", local_name: "New Year's Day", substitute: false },
      { date: "2025-01-20", name: "Martin Luther King Jr. Day", local_name: "Martin Luther King Jr. Day", substitute: false },
      { date: "2025-02-17", name: "Washington's Birthday", local_name: "Washington's Birthday", substitute: false },
      { date: "2025-05-26", name: "Memorial Day", local_name: "Memorial Day", substitute: false },
      { date: "2025-06-19", name: "Juneteenth", local_name: "Juneteenth", substitute: false },
      { date: "2025-07-04", name: "Independence Day", local_name: "Independence Day", substitute: false },
      { date: "2025-09-01", name: "Labor Day", local_name: "Labor Day", substitute: false },
      { date: "2025-10-13", name: "Columbus Day", local_name: "Columbus Day", substitute: false },
      { date: "2025-11-11", name: "Veterans Day", local_name: "Veterans Day", substitute: false },
      { date: "2025-11-27", name: "Thanksgiving Day", local_name: "Thanksgiving Day", substitute: false },
      { date: "2025-12-25", name: "Christmas Day", local_name: "Christmas Day", substitute: false },
    ]);
    for (const holiday of national(data.holidays)) {
      expect(holiday).toMatchObject({ country_code: "US", counties: null, regions: null, types: ["public"] });
    }
  });

  // OPM "2026 Federal Holidays": July 4 is a Saturday, so Friday July 3 is the observed holiday.
  it("2026: Independence Day on a Saturday is observed on Friday July 3, marked as a substitute", async () => {
    const { data } = await h.get("/holidays?country=US&year=2026");
    const july = national(data.holidays).filter((holiday) => holiday.date.startsWith("2026-07"));
    expect(july).toEqual([
      {
        date: "2026-07-03",
        end_date: "2026-07-03",
        start: "2026-07-03T00:00:00-04:00",
        end: "2026-07-04T00:00:00-04:00",
        name: "Independence Day (substitute day)",
        local_name: "Independence Day (substitute day)",
        ...US_NATIONWIDE,
        substitute: true,
        lunar_date: null,
        source: null,
      },
      {
        date: "2026-07-04",
        end_date: "2026-07-04",
        start: "2026-07-04T00:00:00-04:00",
        end: "2026-07-05T00:00:00-04:00",
        name: "Independence Day",
        local_name: "Independence Day",
        ...US_NATIONWIDE,
        substitute: false,
        lunar_date: null,
        source: null,
      },
    ]);
  });

  // OPM "2023 Federal Holidays": Veterans Day, Saturday November 11, observed on Friday November 10.
  it("2023: Veterans Day on a Saturday is observed on Friday November 10", async () => {
    const { data } = await h.get("/holidays?country=US&year=2023");
    const november = national(data.holidays).filter((holiday) => holiday.date.startsWith("2023-11"));
    expect(november.map(({ date, name, substitute }) => ({ date, name, substitute }))).toEqual([
      { date: "2023-11-10", name: "Veterans Day (substitute day)", substitute: true },
      { date: "2023-11-11", name: "Veterans Day", substitute: false },
      { date: "2023-11-23", name: "Thanksgiving Day", substitute: false },
    ]);
    const stateCopies = data.holidays.filter((holiday) => !holiday.global && holiday.name.startsWith("Veterans Day"));
    expect(stateCopies).toEqual([]);
  });

  it("a federal holiday some state governments do not observe stays national and names them", async () => {
    const { data } = await h.get("/holidays?country=US&year=2026");
    const columbus = data.holidays.find((holiday) => holiday.name === "Columbus Day");
    expect(columbus).toMatchObject({
      date: "2026-10-12",
      global: true,
      counties: null,
      except_counties: ["US-CA", "US-CO", "US-DE", "US-FL", "US-HI", "US-NC", "US-NH", "US-NV"],
    });
    const california = await h.get("/holidays?country=US&year=2026&subdivision=US-CA");
    expect(california.data.holidays.map((holiday) => holiday.name)).not.toContain("Columbus Day");
    expect(california.data.holidays.map((holiday) => holiday.name)).toContain("Veterans Day");
  });

  it("states naming the same day alike, up to case, share one record", async () => {
    const { data } = await h.get("/holidays?country=US&year=2026");
    const dayAfterThanksgiving = data.holidays.filter((holiday) => holiday.date === "2026-11-27").map((holiday) => [holiday.name, holiday.counties]);
    expect(dayAfterThanksgiving).toEqual([
      ["Day After Thanksgiving", ["US-DE", "US-FL", "US-NC", "US-NH", "US-NM", "US-OK", "US-TX"]],
      ["Day after Thanksgiving Day", ["US-CA"]],
      ["Family Day", ["US-NV"]],
      ["Lincoln's Birthday", ["US-IN"]],
      ["Lincoln's Day", ["US-WV"]],
      ["Native American Heritage Day", ["US-MD"]],
      ["State Holiday", ["US-GA"]],
    ]);
  });

  it("a state holiday carries the states that observe it", async () => {
    const { data } = await h.get("/holidays?country=US&year=2025");
    const patriots = data.holidays.find((holiday) => holiday.name === "Patriots' Day");
    // Massachusetts and Maine: third Monday in April.
    expect(patriots).toMatchObject({ date: "2025-04-21", global: false, counties: ["US-MA", "US-ME"], regions: null });
  });
});

describe("Germany with its Länder", () => {
  // Bundesministerium des Innern, "Gesetzliche Feiertage" 2026, and the Länder holiday laws
  // (e.g. Bayerisches Feiertagsgesetz, Sächsisches SFG, Thüringer FtG with its Weltkindertag).
  it("2026: nine national holidays and every Land's own, with the Länder that observe them", async () => {
    const { status, data } = await h.get("/holidays?country=DE&year=2026");
    expect(status).toBe(200);
    const rows = data.holidays.map((holiday) => [holiday.date, holiday.local_name, holiday.global, holiday.counties, holiday.regions]);
    expect(rows).toEqual([
      ["2026-01-01", "Neujahr", true, null, null],
      ["2026-01-06", "Heilige Drei Könige", false, ["DE-BW", "DE-BY", "DE-ST"], null],
      ["2026-03-08", "Internationaler Frauentag", false, ["DE-BE", "DE-MV"], null],
      ["2026-04-03", "Karfreitag", true, null, null],
      ["2026-04-05", "Ostersonntag", false, ["DE-BB"], null],
      ["2026-04-06", "Ostermontag", true, null, null],
      ["2026-05-01", "Maifeiertag", true, null, null],
      ["2026-05-14", "Christi Himmelfahrt", true, null, null],
      ["2026-05-24", "Pfingstsonntag", false, ["DE-BB"], null],
      ["2026-05-25", "Pfingstmontag", true, null, null],
      ["2026-06-04", "Fronleichnam", false, ["DE-BW", "DE-BY", "DE-HE", "DE-NW", "DE-RP", "DE-SL"], ["DE-SN-BZ", "DE-TH-EIC", "DE-TH-UH", "DE-TH-WAK"]],
      ["2026-08-08", "Augsburger Friedensfest", false, null, ["DE-BY-A"]],
      ["2026-08-15", "Mariä Himmelfahrt", false, ["DE-SL"], ["DE-BY-A", "DE-BY-KATH"]],
      ["2026-09-20", "Weltkindertag", false, ["DE-TH"], null],
      ["2026-10-03", "Tag der Deutschen Einheit", true, null, null],
      ["2026-10-31", "Reformationstag", false, ["DE-BB", "DE-HB", "DE-HH", "DE-MV", "DE-NI", "DE-SH", "DE-SN", "DE-ST", "DE-TH"], null],
      ["2026-11-01", "Allerheiligen", false, ["DE-BW", "DE-BY", "DE-NW", "DE-RP", "DE-SL"], null],
      ["2026-11-18", "Buß- und Bettag", false, ["DE-SN"], null],
      ["2026-12-25", "1. Weihnachtstag", true, null, null],
      ["2026-12-26", "2. Weihnachtstag", true, null, null],
    ]);
    expect(data.count).toBe(20);
    expect(data.holidays[0].name).toBe("New Year's Day");
  });

  it("subdivision=DE-BY keeps the national holidays and Bavaria's state-wide ones", async () => {
    const { data } = await h.get("/holidays?country=DE&year=2026&subdivision=de-by");
    expect(data.subdivision).toBe("DE-BY");
    expect(data.holidays.map((holiday) => holiday.date)).toEqual([
      "2026-01-01",
      "2026-01-06",
      "2026-04-03",
      "2026-04-06",
      "2026-05-01",
      "2026-05-14",
      "2026-05-25",
      "2026-06-04",
      "2026-10-03",
      "2026-11-01",
      "2026-12-25",
      "2026-12-26",
    ]);
  });

  it("subdivision=DE-BY-A (Augsburg) adds the Peace Festival and Assumption Day", async () => {
    const { data } = await h.get("/holidays?country=DE&year=2026&subdivision=DE-BY-A");
    expect(data.subdivision).toBe("DE-BY-A");
    expect(data.count).toBe(14);
    expect(data.holidays.filter((holiday) => holiday.date.startsWith("2026-08")).map((holiday) => holiday.name)).toEqual([
      "Augsburg Peace Festival",
      "Assumption",
    ]);
  });

  it("bank holidays: Christmas Eve from 14:00 local time", async () => {
    const { data } = await h.get("/holidays?country=DE&year=2026&types=bank");
    expect(data.types).toEqual(["bank"]);
    expect(data.holidays).toEqual([
      expect.objectContaining({
        date: "2026-12-24",
        end_date: "2026-12-24",
        start: "2026-12-24T14:00:00+01:00",
        end: "2026-12-25T00:00:00+01:00",
        local_name: "Heiliger Abend",
        types: ["bank"],
      }),
      expect.objectContaining({ date: "2026-12-31", start: "2026-12-31T14:00:00+01:00", local_name: "Silvester", types: ["bank"] }),
    ]);
  });
});

describe("United Kingdom", () => {
  // GOV.UK "UK bank holidays" 2026: England and Wales 1 Jan, 3 Apr, 6 Apr, 4 May, 25 May, 31 Aug, 25 Dec,
  // 28 Dec (substitute for Boxing Day); Scotland 1 Jan, 2 Jan, 3 Apr, 4 May, 25 May, 3 Aug, 30 Nov, 25 Dec, 28 Dec,
  // and the one-off World Cup bank holiday of 15 June (gov.scot, a correction over date-holidays).
  it.each([
    ["GB-ENG", ["2026-01-01", "2026-04-03", "2026-04-06", "2026-05-04", "2026-05-25", "2026-08-31", "2026-12-25", "2026-12-26", "2026-12-28"]],
    [
      "GB-SCT",
      [
        "2026-01-01",
        "2026-01-02",
        "2026-04-03",
        "2026-05-04",
        "2026-05-25",
        "2026-06-15",
        "2026-08-03",
        "2026-11-30",
        "2026-12-25",
        "2026-12-26",
        "2026-12-28",
      ],
    ],
  ])("2026 in %s", async (subdivision, dates) => {
    const { data } = await h.get(`/holidays?country=GB&year=2026&subdivision=${subdivision}`);
    // Boxing Day itself (Saturday 26 December) is listed beside its substitute Monday.
    expect(data.holidays.map((holiday) => holiday.date)).toEqual(dates);
  });

  it("Easter Monday is national except in Scotland", async () => {
    const { data } = await h.get("/holidays?country=GB&year=2026");
    expect(data.holidays.find((holiday) => holiday.date === "2026-04-06")).toMatchObject({
      name: "Easter Monday",
      global: true,
      except_counties: ["GB-SCT"],
    });
  });
});

describe("France", () => {
  // service-public.fr "Jours fériés" 2026 (Code du travail L3133-1), and in Moselle, Bas-Rhin and Haut-Rhin also
  // Good Friday and Saint Stephen's Day (Code du travail L3134-13).
  it("2026: the eleven national holidays, and Alsace-Moselle's two more", async () => {
    const { data } = await h.get("/holidays?country=FR&year=2026");
    expect(national(data.holidays).map((holiday) => [holiday.date, holiday.local_name])).toEqual([
      ["2026-01-01", "Nouvel An"],
      ["2026-04-06", "Lundi de Pâques"],
      ["2026-05-01", "Fête du travail"],
      ["2026-05-08", "Fête de la Victoire 1945"],
      ["2026-05-14", "Ascension"],
      ["2026-05-25", "Lundi de Pentecôte"],
      ["2026-07-14", "Fête Nationale de la France"],
      ["2026-08-15", "Assomption"],
      ["2026-11-01", "Toussaint"],
      ["2026-11-11", "Armistice 1918"],
      ["2026-12-25", "Noël"],
    ]);
    const moselle = await h.get("/holidays?country=FR&year=2026&subdivision=FR-57");
    expect(moselle.data.holidays.map((holiday) => holiday.date)).toEqual([
      "2026-01-01",
      "2026-04-03",
      "2026-04-06",
      "2026-05-01",
      "2026-05-08",
      "2026-05-14",
      "2026-05-25",
      "2026-07-14",
      "2026-08-15",
      "2026-11-01",
      "2026-11-11",
      "2026-12-25",
      "2026-12-26",
    ]);
  });
});

describe("Japan with substitute days", () => {
  // Cabinet Office (内閣府) "国民の祝日について", 令和7年(2025)の祝日: 19 days, three of them
  // substitute holidays (振替休日) on 2/24, 5/6 and 11/24.
  it("2025: the sixteen national holidays and three substitute days", async () => {
    const { data } = await h.get("/holidays?country=JP&year=2025");
    expect(data.timezone).toBe("Asia/Tokyo");
    expect(data.local_language).toBe("ja");
    expect(brief(data.holidays)).toEqual([
      { date: "2025-01-01", name: "New Year's Day", local_name: "元日", substitute: false },
      { date: "2025-01-13", name: "Coming of Age Day", local_name: "成人の日", substitute: false },
      { date: "2025-02-11", name: "Foundation Day", local_name: "建国記念の日", substitute: false },
      { date: "2025-02-23", name: "Emperor's Birthday", local_name: "天皇誕生日", substitute: false },
      { date: "2025-02-24", name: "Emperor's Birthday (substitute day)", local_name: "天皇誕生日 (振替休日)", substitute: true },
      { date: "2025-03-20", name: "Spring Equinox Day", local_name: "春分の日", substitute: false },
      { date: "2025-04-29", name: "Showa Day", local_name: "昭和の日", substitute: false },
      { date: "2025-05-03", name: "Constitution Day", local_name: "憲法記念日", substitute: false },
      { date: "2025-05-04", name: "Greenery Day", local_name: "みどりの日", substitute: false },
      { date: "2025-05-05", name: "Children's Day", local_name: "こどもの日", substitute: false },
      { date: "2025-05-06", name: "Greenery Day (substitute day)", local_name: "みどりの日 (振替休日)", substitute: true },
      { date: "2025-07-21", name: "Marine Day", local_name: "海の日", substitute: false },
      { date: "2025-08-11", name: "Mountain Day", local_name: "山の日", substitute: false },
      { date: "2025-09-15", name: "Respect-for-the-Aged Day", local_name: "敬老の日", substitute: false },
      { date: "2025-09-23", name: "Autumnal Equinox Day", local_name: "秋分の日", substitute: false },
      { date: "2025-10-13", name: "Sports Day", local_name: "スポーツの日", substitute: false },
      { date: "2025-11-03", name: "Culture Day", local_name: "文化の日", substitute: false },
      { date: "2025-11-23", name: "Labor Thanksgiving Day", local_name: "勤労感謝の日", substitute: false },
      { date: "2025-11-24", name: "Labor Thanksgiving Day (substitute day)", local_name: "勤労感謝の日 (振替休日)", substitute: true },
    ]);
    expect(data.holidays.every((holiday) => holiday.global && holiday.types[0] === "public")).toBe(true);
  });
});

describe("Brazil with Carnival", () => {
  // Ministério da Gestão e da Inovação em Serviços Públicos, portaria of national holidays and optional
  // days (pontos facultativos) for 2026: Carnival on 16 and 17 February, Ash Wednesday until 14:00,
  // Corpus Christi on 4 June; the two rounds of the general election (TSE) fall on 4 and 25 October.
  it("2026: the national public holidays, Black Awareness Day in every state (Lei 14.759/2023)", async () => {
    const { data } = await h.get("/holidays?country=BR&year=2026");
    expect(data.holidays.find((holiday) => holiday.date === "2026-11-20")).toMatchObject({ global: true, except_counties: null });
    expect(data.holidays.find((holiday) => holiday.date === "2026-11-20")?.source).toContain("Lei nº 14.759");
    expect(data.timezone).toBe("America/Sao_Paulo");
    expect(data.local_language).toBe("pt");
    expect(national(data.holidays).map((holiday) => [holiday.date, holiday.local_name])).toEqual([
      ["2026-01-01", "Ano Novo"],
      ["2026-04-03", "Sexta-Feira Santa"],
      ["2026-04-21", "Dia de Tiradentes"],
      ["2026-05-01", "Dia do trabalhador"],
      ["2026-09-07", "Dia da Independência"],
      ["2026-10-04", "Dia de Eleição"],
      ["2026-10-12", "Nossa Senhora Aparecida"],
      ["2026-10-25", "Dia de Eleição"],
      ["2026-11-02", "Dia de Finados"],
      ["2026-11-15", "Proclamação da República"],
      ["2026-11-20", "Dia da Consciência Negra"],
      ["2026-12-25", "Natal"],
    ]);
  });

  it("2026: Carnival Monday and Tuesday as bank holidays, Ash Wednesday off until 14:00", async () => {
    const { data } = await h.get("/holidays?country=BR&year=2026&types=bank,optional");
    expect(data.types).toEqual(["bank", "optional"]);
    const carnival = national(data.holidays).filter((holiday) => holiday.local_name === "Carnaval");
    expect(carnival.map(({ date, end_date, start, end, types }) => ({ date, end_date, start, end, types }))).toEqual([
      { date: "2026-02-14", end_date: "2026-02-15", start: "2026-02-14T00:00:00-03:00", end: "2026-02-16T00:00:00-03:00", types: ["optional"] },
      { date: "2026-02-16", end_date: "2026-02-16", start: "2026-02-16T00:00:00-03:00", end: "2026-02-17T00:00:00-03:00", types: ["bank"] },
      { date: "2026-02-17", end_date: "2026-02-17", start: "2026-02-17T00:00:00-03:00", end: "2026-02-18T00:00:00-03:00", types: ["bank"] },
      { date: "2026-02-18", end_date: "2026-02-18", start: "2026-02-18T00:00:00-03:00", end: "2026-02-18T14:00:00-03:00", types: ["optional"] },
    ]);
    expect(data.holidays.find((holiday) => holiday.local_name === "Corpo de Deus" && holiday.global)).toMatchObject({
      date: "2026-06-04",
      types: ["bank"],
    });
  });
});

describe("local times", () => {
  it("India's Republic Day starts at midnight India Standard Time (+05:30)", async () => {
    const { data } = await h.get("/holidays?country=IN&year=2026");
    expect(data.timezone).toBe("Asia/Kolkata");
    expect(data.holidays.find((holiday) => holiday.name === "Republic Day")).toMatchObject({
      date: "2026-01-26",
      start: "2026-01-26T00:00:00+05:30",
      end: "2026-01-27T00:00:00+05:30",
      global: true,
    });
  });
});

describe("multi-day holidays", () => {
  it("Eid al-Fitr in the United Arab Emirates 2026 begins at sunset and lasts three days", async () => {
    const { data } = await h.get("/holidays?country=AE&year=2026");
    const eid = data.holidays.find((holiday) => holiday.name === "End of Ramadan (Eid al-Fitr)");
    expect(eid).toMatchObject({
      date: "2026-03-20",
      end_date: "2026-03-22",
      start: "2026-03-19T18:00:00+04:00",
      end: "2026-03-22T18:00:00+04:00",
      global: true,
    });
  });
});

describe("movable holidays are computed for each year", () => {
  it.each([
    [1975, "1975-03-28"],
    [2024, "2024-03-29"],
    [2100, "2100-03-26"],
  ])("Good Friday in Germany %i is %s", async (year, date) => {
    const { status, data } = await h.get(`/holidays?country=DE&year=${year}`);
    expect(status).toBe(200);
    expect(data.holidays.find((holiday) => holiday.local_name === "Karfreitag")?.date).toBe(date);
  });
});
