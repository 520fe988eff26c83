import { describe, expect, it } from "vitest";
import { cikOfTicker, fortuneRows, companyDataUnderTest, pdlRows, secRowOf, tenDigits } from "./helpers.js";

const { get } = companyDataUnderTest();

const ids = (data: { companies: { id: string }[] }) => data.companies.map((c) => c.id);

describe("GET /search by name", () => {
  it("finds a company by its name, typos and legal suffixes notwithstanding", async () => {
    const jnj = tenDigits(secRowOf("JNJ")[0]);
    const exact = await get("/search?name=Johnson%20%26%20Johnson");
    expect(exact.status).toBe(200);
    expect(exact.data.companies[0]).toMatchObject({ id: jnj, ticker: "JNJ", match_score: 1 });
    const typo = await get("/search?name=jonson%20and%20jonson");
    expect(typo.data.companies[0].id).toBe(jnj);

    const apple = tenDigits(secRowOf("AAPL")[0]);
    const plain = await get("/search?name=apple");
    expect(plain.data.companies[0]).toMatchObject({ id: apple, name: "Apple", legal_name: "Apple Inc.", match_score: 1 });
    for (const spelling of ["Apple%20Inc.", "APPLE%20CORP", "apple,%20ltd", "The%20Apple%20Company", "Aple%20Inc"]) {
      const { data } = await get(`/search?name=${spelling}`);
      expect(data.companies[0].id, spelling).toBe(apple);
    }
  });

  it("ranks a brand written as one word first however it is typed apart", async () => {
    const jpm = tenDigits(secRowOf("JPM")[0]);
    for (const spelling of ["jp%20morgan", "J.P.%20Morgan", "j%20p%20morgan", "JPMorgan"]) {
      const { data } = await get(`/search?name=${spelling}`);
      expect(data.companies[0].id, spelling).toBe(jpm);
    }
    const att = tenDigits(secRowOf("T")[0]);
    expect((await get("/search?name=at%20t")).data.companies[0].id).toBe(att);
    // A name without short words is searched as typed.
    const kinder = await get("/search?name=kinder%20morgan");
    expect(kinder.data.companies[0]).toMatchObject({ name: "Kinder Morgan", match_score: 1 });
  });

  it("says so when nothing matches, and refuses a name that is only a legal suffix", async () => {
    const { status, data } = await get("/search?name=zzqxqzz");
    expect(status).toBe(200);
    expect(data).toEqual({ total_results: 0, limit: 10, next_cursor: null, companies: [] });
    const suffix = await get("/search?name=Inc.");
    expect(suffix.status).toBe(400);
    expect(suffix.error.details).toEqual([{ field: "name", issue: "must contain a word besides legal suffixes such as Inc or Ltd" }]);
  });
});

describe("GET /search filters", () => {
  it("finds every ticker of a company, separators ignored", async () => {
    const berkshire = tenDigits(secRowOf("BRK-B")[0]);
    for (const ticker of ["BRK-B", "brk.b", "BRKA"]) {
      const { data } = await get(`/search?ticker=${ticker}`);
      expect(ids(data), ticker).toEqual([berkshire]);
    }
    expect((await get("/search?ticker=B%24RK")).status).toBe(400);
  });

  it("combines sector, state and minimum employees, by Fortune rank", async () => {
    const rows = fortuneRows()
      .filter((r) => r.sector === "Technology" && r.state === "CA" && Number(r["num. of employees"]) >= 50_000)
      .sort((a, b) => Number(a.rank) - Number(b.rank));
    expect(rows.length).toBeGreaterThan(3);
    const expected = rows.map((r) => tenDigits(cikOfTicker(r.Ticker)!));
    const { data } = await get("/search?sector=technology&state=ca&min_employees=50000");
    expect(ids(data)).toEqual(expected);
    expect(data.companies.map((c) => c.employees)).toEqual(rows.map((r) => Number(r["num. of employees"])));
  });

  it("filters by industry and by the largest employee count", async () => {
    const industry = "information technology and services";
    const { data } = await get(`/search?industry=${encodeURIComponent(industry.toUpperCase())}&limit=100`);
    expect(data.total_results).toBe(pdlRows().filter((r) => r.industry === industry).length);
    expect(new Set(data.companies.map((c) => c.industry))).toEqual(new Set([industry]));

    const most = Math.max(...fortuneRows().map((r) => Number(r["num. of employees"])));
    const largest = fortuneRows().filter((r) => Number(r["num. of employees"]) >= most);
    const top = await get(`/search?min_employees=${most}`);
    expect(top.data.companies.map((c: { name: string }) => c.name)).toEqual(largest.map((r) => r.company));
    expect((await get(`/search?min_employees=${most + 1}`)).data.total_results).toBe(0);
  });

  it("refuses an unknown sector, industry or state with the closest values", async () => {
    const sector = await get("/search?sector=tech");
    expect(sector.status).toBe(400);
    expect(sector.error.details?.[0].field).toBe("sector");
    expect(sector.error.details?.[0].issue).toContain('"Technology"');
    expect((await get("/search?industry=underwater%20basket%20weaving")).error.details?.[0].field).toBe("industry");
    expect((await get("/search?state=ZZ")).error.details).toEqual([{ field: "state", issue: "must be a US state or territory code such as CA, NY or DC" }]);
    expect((await get("/search?state=CAL")).status).toBe(400);
  });

  it("bounds min_employees", async () => {
    expect((await get("/search?min_employees=10000000")).status).toBe(200);
    for (const value of ["10000001", "-1", "1.5"]) {
      const { status, error } = await get(`/search?min_employees=${value}`);
      expect(status, value).toBe(400);
      expect(error.details?.[0].field).toBe("min_employees");
    }
  });
});

describe("GET /search pagination", () => {
  it("pages through a sector with cursors, without overlap, by rank", async () => {
    const ranks = fortuneRows()
      .filter((r) => r.sector === "Financials")
      .map((r) => Number(r.rank))
      .sort((a, b) => a - b);
    expect(ranks.length).toBeGreaterThan(100);
    const first = await get("/search?sector=Financials&limit=100");
    expect(first.data).toMatchObject({ total_results: ranks.length, limit: 100 });
    expect(first.data.companies).toHaveLength(100);
    const second = await get(`/search?sector=Financials&limit=100&cursor=${first.data.next_cursor}`);
    expect(second.data.next_cursor).toBeNull();
    const all = [...first.data.companies, ...second.data.companies];
    expect(all.map((c) => c.fortune_rank)).toEqual(ranks);
    expect(new Set(all.map((c: { id: string }) => c.id)).size).toBe(ranks.length);
  });

  it("defaults to 10 results, allows 1 to 100, and refuses a cursor that is not this query's", async () => {
    const { data } = await get("/search?sector=Energy");
    expect(data.companies).toHaveLength(10);
    expect((await get("/search?sector=Energy&limit=1")).data.companies).toHaveLength(1);
    for (const limit of ["0", "101"]) {
      const res = await get(`/search?sector=Energy&limit=${limit}`);
      expect(res.status, limit).toBe(400);
      expect(res.error.details?.[0].field).toBe("limit");
    }
    const other = await get(`/search?sector=Retailing&cursor=${data.next_cursor}`);
    expect(other.status).toBe(400);
    expect(other.error.details?.[0].field).toBe("cursor");
    expect((await get("/search?cursor=not-a-cursor")).status).toBe(400);
  });

  it("needs a key", async () => {
    expect((await get("/search?name=apple", { "x-gateway-host": "company-data.api.local" })).status).toBe(401);
  });
});
