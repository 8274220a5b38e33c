const { parse, CsvError } = require("../src");

describe("parse", () => {
  test("splits rows and fields", () => {
    expect(parse("a,b\n1,2\n")).toEqual([["a", "b"], ["1", "2"]]);
  });

  test("accepts CRLF line ends and a last row without one", () => {
    expect(parse("a,b\r\n1,2")).toEqual([["a", "b"], ["1", "2"]]);
  });

  test("keeps commas and line breaks inside quotes", () => {
    expect(parse('"a,b","c\nd"\n')).toEqual([["a,b", "c\nd"]]);
  });

  test("reports an unclosed quote with its line", () => {
    expect(() => parse('a\n"open,b\n')).toThrow(CsvError);
    expect(() => parse('a\n"open,b\n')).toThrow(/line 2/);
  });
});
