const { parse, stringify, toRecords, fromRecords } = require("../src");

describe("records", () => {
  test("maps rows to objects by the header", () => {
    expect(toRecords(parse("id,name\n1,Ada\n2,Grace\n"))).toEqual([
      { id: "1", name: "Ada" },
      { id: "2", name: "Grace" },
    ]);
  });

  test("rejects a row of the wrong width", () => {
    expect(() => toRecords(parse("id,name\n1\n"))).toThrow(/line 2: expected 2 fields, found 1/);
  });

  test("writes objects back as rows", () => {
    expect(stringify(fromRecords([{ id: 1, name: "Ada, Countess" }]))).toBe(
      'id,name\n1,"Ada, Countess"\n',
    );
  });
});
