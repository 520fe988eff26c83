import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { megaCaller, type Caller } from "./helpers.js";
import { startService } from "@apiplat/testing";
import service from "../src/service.js";

let h: Caller;
beforeAll(async () => {
  h = await megaCaller(await startService(service, { settings: { warmUp: false } }));
});
afterAll(async () => {
  await h?.close();
});

function validationError(field: string, issue: string) {
  return {
    status: "error",
    error: { code: "VALIDATION_ERROR", message: `${field} ${issue}.`, details: [{ field, issue }] },
    request_id: expect.any(String),
    timestamp: expect.any(String),
  };
}

describe("year bounds", () => {
  it.each([1975, 2100])("%i is accepted", async (year) => {
    const { status, data } = await h.get(`/holidays?country=FR&year=${year}`);
    expect(status).toBe(200);
    expect(data.year).toBe(year);
    expect(data.holidays[0]).toMatchObject({ date: `${year}-01-01`, local_name: "Nouvel An" });
  });

  it("1974 is refused", async () => {
    const { status, body } = await h.get("/holidays?country=FR&year=1974");
    expect(status).toBe(400);
    expect(body).toEqual(validationError("year", "must be at least 1975"));
  });

  it("2101 is refused", async () => {
    const { status, body } = await h.get("/holidays?country=FR&year=2101");
    expect(status).toBe(400);
    expect(body).toEqual(validationError("year", "must be at most 2100"));
  });

  it.each(["2025.5", "twenty", ""])("year=%s is not an integer", async (year) => {
    const { status, error } = await h.get(`/holidays?country=FR&year=${year}`);
    expect(status).toBe(400);
    expect(error.details).toEqual([{ field: "year", issue: "must be an integer" }]);
  });
});

describe("country", () => {
  it("is matched case-insensitively, surrounding spaces ignored", async () => {
    const { status, data } = await h.get("/holidays?country=jp&year=2025");
    expect(status).toBe(200);
    expect(data.country_code).toBe("JP");
    const spaced = await h.get("/holidays?country=%20de%20&year=2025");
    expect(spaced.status).toBe(200);
    expect(spaced.data.country_code).toBe("DE");
  });

  it("an unknown code is a 400 naming the parameter, with the close matches", async () => {
    const { status, error } = await h.get("/holidays?country=GER&year=2026");
    expect(status).toBe(400);
    expect(error).toEqual({
      code: "VALIDATION_ERROR",
      message: 'country "GER" is not an ISO 3166-1 alpha-2 code we know; did you mean DE (Germany)?',
      details: [{ field: "country", issue: "is not supported; did you mean DE (Germany)?" }],
    });
  });

  it.each([
    ["UK", "GB (United Kingdom)"],
    ["USA", "US (United States)"],
    ["Deutschland", "DE (Germany)"],
    ["Japon", "JP (Japan)"],
    ["Brasil", "BR (Brazil)"],
    ["Germny", "DE (Germany)"],
  ])("%s suggests %s", async (input, suggestion) => {
    const { status, error } = await h.get(`/holidays?country=${encodeURIComponent(input)}&year=2026`);
    expect(status).toBe(400);
    expect(error.details).toEqual([{ field: "country", issue: `is not supported; did you mean ${suggestion}?` }]);
  });

  it("a real country without a calendar says so", async () => {
    const { status, error } = await h.get("/holidays?country=AF&year=2026");
    expect(status).toBe(400);
    expect(error.message).toBe("country AF (Afghanistan) has no holiday calendar here; GET /countries lists the supported codes.");
  });

  it("nothing close: points to /countries", async () => {
    const { status, error } = await h.get("/holidays?country=QQ&year=2026");
    expect(status).toBe(400);
    expect(error.message).toBe('country "QQ" is not an ISO 3166-1 alpha-2 code we know; GET /countries lists the supported codes.');
    expect(error.details).toEqual([{ field: "country", issue: "is not supported" }]);
  });

  it("is required", async () => {
    const { status, body } = await h.get("/holidays?year=2026");
    expect(status).toBe(400);
    expect(body).toEqual(validationError("country", "is required"));
  });

  it("1 character is too short", async () => {
    const { status, body } = await h.get("/holidays?country=D&year=2026");
    expect(status).toBe(400);
    expect(body).toEqual(validationError("country", "must be at least 2 characters long"));
  });

  it("64 characters pass validation (and are unknown), 65 are refused", async () => {
    expect((await h.get(`/holidays?country=${"a".repeat(64)}&year=2026`)).status).toBe(400);
    const { status, body } = await h.get(`/holidays?country=${"a".repeat(65)}&year=2026`);
    expect(status).toBe(400);
    expect(body).toEqual(validationError("country", "must be at most 64 characters long"));
  });
});

describe("types", () => {
  it("defaults to public only", async () => {
    const { data } = await h.get("/holidays?country=US&year=2025");
    expect(data.types).toEqual(["public"]);
    expect(data.holidays.every((holiday) => holiday.types[0] === "public")).toBe(true);
  });

  it("widens to every type, in canonical order, ignoring spaces, case and repeats", async () => {
    const { status, data } = await h.get("/holidays?country=US&year=2025&types=Observance, public,school,bank,optional,public");
    expect(status).toBe(200);
    expect(data.types).toEqual(["public", "bank", "optional", "school", "observance"]);
    const national = data.holidays.filter((holiday) => holiday.global);
    expect(national.find((holiday) => holiday.date === "2025-02-14")).toMatchObject({ name: "Valentine's Day", types: ["observance"] });
    expect(national.find((holiday) => holiday.date === "2025-12-24")).toMatchObject({ name: "Christmas Eve", types: ["optional"] });
  });

  it("refuses unknown types, naming them", async () => {
    const { status, body } = await h.get("/holidays?country=US&year=2025&types=public,federal,religious");
    expect(status).toBe(400);
    expect(body).toEqual(validationError("types", "has unknown types (federal, religious); allowed: public, bank, optional, school, observance"));
  });

  it("refuses a list without any type", async () => {
    const { status, body } = await h.get("/holidays?country=US&year=2025&types=,,");
    expect(status).toBe(400);
    expect(body).toEqual(validationError("types", "must name at least one of: public, bank, optional, school, observance"));
  });

  it("64 characters pass, 65 are refused", async () => {
    const atLimit = `observance,bank,optional,school,public${",public".repeat(3)},bank`;
    expect(atLimit.length).toBe(64);
    const accepted = await h.get(`/holidays?country=US&year=2025&types=${atLimit}`);
    expect(accepted.status).toBe(200);
    expect(accepted.data.types).toEqual(["public", "bank", "optional", "school", "observance"]);
    const { status, body } = await h.get(`/holidays?country=US&year=2025&types=${atLimit},`);
    expect(status).toBe(400);
    expect(body).toEqual(validationError("types", "must be at most 64 characters long"));
  });
});

describe("subdivision", () => {
  it("must belong to the country", async () => {
    const { status, body } = await h.get("/holidays?country=DE&year=2026&subdivision=US-CA");
    expect(status).toBe(400);
    expect(body).toEqual(validationError("subdivision", "must be a subdivision or local area of DE (GET /countries lists them)"));
  });

  it("is refused for a country without subdivisions", async () => {
    const { status, body } = await h.get("/holidays?country=JP&year=2026&subdivision=JP-13");
    expect(status).toBe(400);
    expect(body).toEqual(validationError("subdivision", "must be omitted: JP has no subdivisions with holidays of their own"));
  });

  it("32 characters pass validation, 33 are refused", async () => {
    expect((await h.get(`/holidays?country=DE&year=2026&subdivision=${"X".repeat(32)}`)).error.details).toEqual([
      { field: "subdivision", issue: "must be a subdivision or local area of DE (GET /countries lists them)" },
    ]);
    const { status, body } = await h.get(`/holidays?country=DE&year=2026&subdivision=${"X".repeat(33)}`);
    expect(status).toBe(400);
    expect(body).toEqual(validationError("subdivision", "must be at most 32 characters long"));
  });
});

it("an unknown path is 404 in the envelope", async () => {
  const { status, error } = await h.get("/holiday?country=DE");
  expect(status).toBe(404);
  expect(error.code).toBe("NOT_FOUND");
});
