const { parse, stringify, toRecords } = require("../src");

describe("escaped quotes", () => {
  test("a doubled quote inside a quoted field is one quote", () => {
    expect(parse('"say ""hi"""\n')).toEqual([['say "hi"']]);
  });

  test("the field goes on after an escaped quote", () => {
    expect(parse('Ada,"said ""hi"", then left",42\n')).toEqual([
      ["Ada", 'said "hi", then left', "42"],
    ]);
    expect(toRecords(parse('name,note\nAda,"a ""b"" c"\n'))).toEqual([
      { name: "Ada", note: 'a "b" c' },
    ]);
  });

  test("what stringify writes parses back", () => {
    const rows = [['x"y', '""', 'a,"b"'], ["plain", "", 'line\n"two"']];
    expect(parse(stringify(rows))).toEqual(rows);
  });
});

describe("rules that already hold", () => {
  test("an empty quoted field is empty", () => {
    expect(parse('a,"",b\n')).toEqual([["a", "", "b"]]);
  });

  test("a quote in an unquoted field stays as it is", () => {
    expect(parse('5" disk,ok\n')).toEqual([['5" disk', "ok"]]);
  });
});
