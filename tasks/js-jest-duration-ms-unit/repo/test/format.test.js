const { format, humanize } = require("../src");

describe("format", () => {
  test("writes the largest units first", () => {
    expect(format(5_400_000)).toBe("1h30m");
    expect(format(93_600_000)).toBe("1d2h");
  });

  test("writes zero as 0ms", () => {
    expect(format(0)).toBe("0ms");
  });

  test("rejects negative durations", () => {
    expect(() => format(-1)).toThrow(RangeError);
  });
});

describe("humanize", () => {
  test("writes words with plurals", () => {
    expect(humanize(5_400_000)).toBe("1 hour 30 minutes");
    expect(humanize(61_000)).toBe("1 minute 1 second");
  });
});
