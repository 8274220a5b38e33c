const { parse, DurationError } = require("../src");

describe("parse", () => {
  test("reads single units", () => {
    expect(parse("2h")).toBe(7_200_000);
    expect(parse("3m")).toBe(180_000);
    expect(parse("45s")).toBe(45_000);
  });

  test("reads compound durations", () => {
    expect(parse("1h30m")).toBe(5_400_000);
    expect(parse("1d 2h")).toBe(93_600_000);
  });

  test("reads decimals", () => {
    expect(parse("1.5h")).toBe(5_400_000);
  });

  test("rejects unknown text", () => {
    expect(() => parse("3 weeks")).toThrow(DurationError);
    expect(() => parse("")).toThrow(/empty/);
  });
});
