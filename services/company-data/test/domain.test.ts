import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fortuneRows, getter, pdlRows, secRowOf, startCompanyData, tenDigits } from "./helpers.js";

let started: StartedService;
let get: ReturnType<typeof getter>;

beforeAll(async () => {
  started = await startCompanyData();
  get = getter(started, (await started.subscribe("PRO")).headers);
});
afterAll(() => started.close());

describe("GET /domain/{domain}", () => {
  it("finds a company by its website's domain, however the domain is written", async () => {
    const apple = tenDigits(secRowOf("AAPL")[0]);
    expect(fortuneRows().find((r) => r.Ticker === "AAPL")!.Website).toBe("https://www.apple.com");
    for (const written of ["apple.com", "APPLE.COM", "www.apple.com", "https%3A%2F%2Fwww.apple.com%2Fiphone%3Fx%3D1", "apple.com.", "investor.apple.com"]) {
      const { status, body } = await get(`/domain/${written}`);
      expect(status, written).toBe(200);
      expect(body.data.id, written).toBe(apple);
    }
    const full = await get("/domain/apple.com");
    const byId = await get(`/company/${apple}`);
    expect(full.body.data).toEqual(byId.body.data);
  });

  it("finds a company known only to People Data Labs by its domain", async () => {
    const ey = pdlRows().find((r) => r.domain === "ey.com")!;
    const { status, body } = await get("/domain/ey.com");
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ name: ey.name, domain: "ey.com", sources: { domain: "pdl-sample", founded_year: "pdl-sample" } });
  });

  it("gives the better-ranked company when two Fortune 1000 companies list one website", async () => {
    const sharing = fortuneRows()
      .filter((r) => r.Website === "https://www.rtx.com")
      .sort((a, b) => Number(a.rank) - Number(b.rank));
    expect(sharing.length).toBe(2);
    const { body } = await get("/domain/rtx.com");
    expect(body.data).toMatchObject({ name: sharing[0].company, fortune_1000: { rank: Number(sharing[0].rank) } });
  });

  it("answers 404 for a domain no company has, and 400 for what is not a domain", async () => {
    const unknown = await get("/domain/example.org");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe("No company with the website domain example.org in the catalogue.");
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
      const { status, body } = await get(`/domain/${bad}`);
      expect(status, bad).toBe(400);
      expect(body.error.details[0].field, bad).toBe("domain");
    }
  });

  it("needs a key", async () => {
    expect((await get("/domain/apple.com", { "x-gateway-host": "company-data.api.local" })).status).toBe(401);
  });
});
