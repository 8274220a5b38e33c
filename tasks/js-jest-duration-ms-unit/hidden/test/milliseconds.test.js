const { parse, format, DurationError } = require("../src");

describe("milliseconds", () => {
  test("parses a millisecond duration", () => {
    expect(parse("250ms")).toBe(250);
  });

  test("parses milliseconds after other units", () => {
    expect(parse("1s250ms")).toBe(1_250);
    expect(parse("2m 5s 40ms")).toBe(125_040);
  });

  test("round-trips what format writes", () => {
    for (const ms of [1, 999, 1_250, 61_001, 93_784_005]) {
      expect(parse(format(ms))).toBe(ms);
    }
  });
});

describe("rules that already hold", () => {
  test("minutes stay minutes", () => {
    expect(parse("5m")).toBe(300_000);
    expect(parse("1h5m")).toBe(3_900_000);
  });

  test("a unit without a number is refused", () => {
    expect(() => parse("ms")).toThrow(DurationError);
    expect(() => parse("1h m")).toThrow(DurationError);
  });
});
