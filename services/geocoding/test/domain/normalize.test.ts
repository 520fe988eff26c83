import { describe, expect, it } from "vitest";
import { codePointLength, codePointPrefix, normalizeName } from "../../src/domain/normalize.js";

describe("normalizeName", () => {
  it.each([
    ["São Paulo", "sao paulo"],
    ["SAO PAULO", "sao paulo"],
    ["  Sant Julià de Lòria ", "sant julia de loria"],
    ["München", "munchen"],
    ["İstanbul", "istanbul"],
    ["Nuku'alofa", "nukualofa"],
    ["Łódź", "lodz"],
    ["Ærøskøbing", "aeroskobing"],
    ["Straße", "strasse"],
    ["Saint-Pierre--et   Miquelon", "saint pierre et miquelon"],
    ["ｔｏｋｙｏ", "tokyo"],
    ["サン・ジュリア", "サン ジュリア"],
    ["東京", "東京"],
    ["Москва", "москва"],
  ])("%s -> %s", (input, expected) => {
    expect(normalizeName(input)).toBe(expected);
  });

  it("keeps kana voicing marks and recomposes a separate one", () => {
    expect(normalizeName("ガ")).toBe("ガ");
    expect(normalizeName("カ\u3099")).toBe("ガ");
  });

  it("counts and cuts code points, not UTF-16 units", () => {
    expect(codePointLength("𠀋𠀌")).toBe(2);
    expect(codePointPrefix("𠀋𠀌𠀍𠀎", 3)).toBe("𠀋𠀌𠀍");
    expect(codePointPrefix("ab", 3)).toBe("ab");
  });
});
