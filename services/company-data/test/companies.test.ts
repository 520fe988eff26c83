import { describeAuth } from "@apiplat/testing/auth-suite";
import { describe, expect, it } from "vitest";
import { dbpediaRows, fortuneRows, companyDataUnderTest, indexRows, pdlRows, secRowOf, secRows, submissions, tenDigits } from "./helpers.js";

const { svc, get } = companyDataUnderTest();

const millions = (value: string) => Math.round(Number(value) * 1_000_000);

describe("GET /company/{id}", () => {
  it("merges Microsoft from the SEC list, the Fortune 1000 and People Data Labs, naming the source of every field", async () => {
    const [cik, secName, ticker, exchange] = secRowOf("MSFT");
    const fortune = fortuneRows().find((r) => r.Ticker === "MSFT")!;
    const pdl = pdlRows().find((r) => r.domain === "microsoft.com")!;
    const { status, body, data } = await get(`/company/${tenDigits(cik)}?filings_limit=0`);
    expect(status).toBe(200);
    const { timestamp: _t, ...rest } = body;
    expect(rest.status).toBe("success");
    expect(data).toEqual({
      id: tenDigits(cik),
      name: fortune.company,
      legal_name: secName,
      cik: tenDigits(cik),
      ticker,
      tickers: secRows()
        .filter((r) => r[0] === cik)
        .map((r) => r[2]),
      exchange,
      industry: pdl.industry,
      sic_code: null,
      sector: fortune.sector,
      employees: { count: Number(fortune["num. of employees"]), year: 2019, basis: "reported in the Fortune 1000 list" },
      size_range: pdl["size range"],
      revenue: { usd: millions(fortune.revenue), year: 2019 },
      market_cap: { usd: millions(fortune["Market Cap"]), as_of: "2021-01-20" },
      founded_year: Number(pdl["year founded"]),
      headquarters: { street: null, city: fortune.city, state: fortune.state, postal_code: null, country: "US" },
      website: fortune.Website,
      domain: "microsoft.com",
      domains: ["microsoft.com"],
      social_profiles: { linkedin: { handle: "company/microsoft", url: "https://www.linkedin.com/company/microsoft" } },
      description: null,
      fortune_1000: { rank: Number(fortune.rank), year: 2020 },
      sec: null,
      sources: {
        name: "fortune-1000",
        legal_name: "sec-tickers",
        cik: "sec-tickers",
        ticker: "sec-tickers",
        tickers: "sec-tickers",
        exchange: "sec-tickers",
        industry: "pdl-sample",
        sector: "fortune-1000",
        employees: "fortune-1000",
        size_range: "pdl-sample",
        revenue: "fortune-1000",
        market_cap: "fortune-1000",
        founded_year: "pdl-sample",
        headquarters: "fortune-1000",
        website: "fortune-1000",
        domain: "fortune-1000",
        domains: "fortune-1000",
        social_profiles: "pdl-sample",
        fortune_1000: "fortune-1000",
      },
      matched: [
        { source: "sec-tickers", record: `CIK ${cik}`, by: "cik" },
        { source: "fortune-1000", record: `rank ${fortune.rank} (${fortune.company})`, by: "ticker" },
        { source: "pdl-sample", record: `id ${pdl.id} (${pdl.name})`, by: "domain" },
      ],
      filings: { total: 0, recent: [] },
    });
  });

  it("takes the EDGAR submissions record over the other sources for Murphy Oil, with its recent filings newest first", async () => {
    const document = submissions();
    const recent = document.filings.recent;
    const expected = (recent.accessionNumber as string[])
      .map((accession, i) => ({
        form: recent.form[i],
        filed_on: recent.filingDate[i],
        accession_number: accession,
        description: recent.primaryDocDescription[i] || null,
        url: `https://www.sec.gov/Archives/edgar/data/717423/${accession.replace(/-/g, "")}/${recent.primaryDocument[i]}`,
        source: "edgar-submissions",
      }))
      .sort((a, b) => b.filed_on.localeCompare(a.filed_on) || b.accession_number.localeCompare(a.accession_number));
    const fortune = fortuneRows().find((r) => r.Ticker === "MUR")!;
    const business = document.addresses.business;
    const { status, data } = await get("/company/717423?filings_limit=5");
    expect(status).toBe(200);
    expect(data).toMatchObject({
      id: "0000717423",
      name: fortune.company,
      legal_name: document.name,
      industry: document.sicDescription,
      sic_code: document.sic,
      sector: fortune.sector,
      headquarters: {
        street: `${business.street1}, ${business.street2}`,
        city: business.city,
        state: business.stateOrCountry,
        postal_code: business.zipCode,
        country: "US",
      },
      sec: {
        entity_type: document.entityType,
        filer_category: document.category,
        ein: document.ein,
        state_of_incorporation: document.stateOfIncorporation,
        fiscal_year_end: document.fiscalYearEnd,
        phone: document.phone,
        former_names: document.formerNames.map((f: { name: string; from: string; to: string }) => ({
          name: f.name,
          from: f.from.slice(0, 10),
          to: f.to.slice(0, 10),
        })),
      },
      filings: { total: new Set(recent.accessionNumber).size, recent: expected.slice(0, 5) },
    });
    expect(data.sources).toMatchObject({
      legal_name: "edgar-submissions",
      industry: "edgar-submissions",
      headquarters: "edgar-submissions",
      sector: "fortune-1000",
    });
  });

  it("lists a CIK's filings of the daily index (JPMorgan Chase, 2020-01-03), one per accession number", async () => {
    const cik = secRowOf("JPM")[0];
    const rows = indexRows().filter((r) => Number(r.cik) === cik);
    const byAccession = new Map(rows.map((r) => [r.file_name.split("/").at(-1)!.replace(".txt", ""), r]));
    const expected = [...byAccession.entries()]
      .map(([accession, r]) => ({
        form: r.form_type,
        filed_on: `${r.date_filed.slice(0, 4)}-${r.date_filed.slice(4, 6)}-${r.date_filed.slice(6, 8)}`,
        accession_number: accession,
        description: null,
        url: `https://www.sec.gov/Archives/${r.file_name}`,
        source: "edgar-daily-index",
      }))
      .sort((a, b) => b.filed_on.localeCompare(a.filed_on) || b.accession_number.localeCompare(a.accession_number));
    expect(expected.length).toBeGreaterThan(10);
    const { data } = await get(`/company/${cik}`);
    expect(data.filings).toEqual({ total: expected.length, recent: expected.slice(0, 10) });
    const all = await get(`/company/${tenDigits(cik)}?filings_limit=100`);
    expect(all.data.filings.recent).toEqual(expected.slice(0, 100));
  });

  it("gives a company without a CIK a slug id: a DBpedia abstract of its own, a People Data Labs record of its own", async () => {
    const tyku = dbpediaRows().find((r) => r.title === "TY KU")!;
    const { status, data } = await get("/company/ty-ku");
    expect(status).toBe(200);
    expect(data).toMatchObject({
      id: "ty-ku",
      name: "TY KU",
      cik: null,
      description: tyku.abstract.trim(),
      sources: { name: "dbpedia-abstracts", description: "dbpedia-abstracts" },
      matched: [{ source: "dbpedia-abstracts", record: "TY KU", by: "own" }],
      filings: { total: 0, recent: [] },
    });
    const tcs = pdlRows().find((r) => r.domain === "tcs.com")!;
    const [city, region, country] = tcs.locality.split(",").map((s) => s.trim());
    const pdl = await get("/company/tata-consultancy-services");
    expect(pdl.data).toMatchObject({
      name: tcs.name,
      founded_year: Number(tcs["year founded"]),
      employees: { count: Number(tcs["current employee estimate"]), year: null, basis: "People Data Labs current employee estimate" },
      // The file's "india": every headquarters gives its country as an ISO 3166-1 alpha-2 code.
      headquarters: { street: null, city, state: region, postal_code: null, country: country === "india" ? "IN" : country },
      domain: "tcs.com",
      website: "https://tcs.com",
    });
  });

  it("labels Fortune figures with the fiscal year they measure, and countries with ISO codes", async () => {
    // The file says 2021, but Microsoft's 125,843 M$ is its fiscal year ended June 2019: Fortune's 2020 list, fiscal 2019.
    const microsoft = fortuneRows().find((r) => r.company === "Microsoft")!;
    expect(microsoft.revenue).toBe("125843");
    const { data } = await get(`/domain/microsoft.com`);
    expect(data.revenue).toEqual({ usd: 125_843_000_000, year: 2019 });
    expect(data.fortune_1000).toEqual({ rank: Number(microsoft.rank), year: 2020 });
    expect(data.headquarters?.country).toBe("US");
    const ey = await get("/domain/ey.com");
    expect(ey.data.headquarters).toMatchObject({ city: "london", country: "GB" });
  });

  it("reads a CIK with or without its leading zeros", async () => {
    const short = await get("/company/320193");
    const long = await get("/company/0000320193");
    expect(short.status).toBe(200);
    expect(short.data).toEqual(long.data);
    expect(short.data.id).toBe("0000320193");
  });

  it("answers 400 for a malformed id and for filings_limit out of bounds, 404 for an unknown one", async () => {
    for (const id of ["Apple", "apple_inc", "12345678901", "0", "-apple", "apple--inc", "a".repeat(65)]) {
      const { status, error } = await get(`/company/${id}`);
      expect(status, id).toBe(400);
      expect(error.details?.[0].field).toBe("id");
    }
    expect((await get(`/company/${"a".repeat(64)}`)).status).toBe(404);
    expect((await get("/company/9999999999")).status).toBe(404);
    expect((await get("/company/no-such-company")).error.code).toBe("NOT_FOUND");
    expect((await get("/company/320193?filings_limit=100")).status).toBe(200);
    for (const limit of ["-1", "101", "ten"]) {
      const { status, error } = await get(`/company/320193?filings_limit=${limit}`);
      expect(status, limit).toBe(400);
      expect(error.details?.[0].field).toBe("filings_limit");
    }
  });
});

describe("GET /domain/{domain}", () => {
  it("finds a company by its website's domain, however the domain is written", async () => {
    const apple = tenDigits(secRowOf("AAPL")[0]);
    expect(fortuneRows().find((r) => r.Ticker === "AAPL")!.Website).toBe("https://www.apple.com");
    for (const written of ["apple.com", "APPLE.COM", "www.apple.com", "https%3A%2F%2Fwww.apple.com%2Fiphone%3Fx%3D1", "apple.com.", "investor.apple.com"]) {
      const { status, data } = await get(`/domain/${written}`);
      expect(status, written).toBe(200);
      expect(data.id, written).toBe(apple);
    }
    const full = await get("/domain/apple.com");
    const byId = await get(`/company/${apple}`);
    expect(full.data).toEqual(byId.data);
  });

  it("finds a company known only to People Data Labs by its domain", async () => {
    const ey = pdlRows().find((r) => r.domain === "ey.com")!;
    const { status, data } = await get("/domain/ey.com");
    expect(status).toBe(200);
    expect(data).toMatchObject({ name: ey.name, domain: "ey.com", sources: { domain: "pdl-sample", founded_year: "pdl-sample" } });
  });

  it("gives the better-ranked company when two Fortune 1000 companies list one website", async () => {
    const sharing = fortuneRows()
      .filter((r) => r.Website === "https://www.rtx.com")
      .sort((a, b) => Number(a.rank) - Number(b.rank));
    expect(sharing.length).toBe(2);
    const { data } = await get("/domain/rtx.com");
    expect(data).toMatchObject({ name: sharing[0].company, fortune_1000: { rank: Number(sharing[0].rank) } });
  });

  it("answers 404 for a domain no company has, and 400 for what is not a domain", async () => {
    const unknown = await get("/domain/example.org");
    expect(unknown.status).toBe(404);
    expect(unknown.error.message).toBe("No company with the website domain example.org in the catalogue.");
    for (const bad of [
      "localhost",
      "127.0.0.1",
      "not%20a%20domain",
      "apple..com",
      "-apple.com",
      "apple.c0m",
      "ftp%3A%2F%2Fapple.com",
      `${"a".repeat(64)}.com`,
    ]) {
      const { status, error } = await get(`/domain/${bad}`);
      expect(status, bad).toBe(400);
      expect(error.details?.[0].field, bad).toBe("domain");
    }
  });

  it("needs a key", async () => {
    expect((await get("/domain/apple.com", { "x-gateway-host": "company-data.api.local" })).status).toBe(401);
  });
});

describeAuth({ started: () => svc.started, method: "GET", url: "/company/320193" });
