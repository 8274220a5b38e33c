import assert from "node:assert/strict";
import { FilterSyntaxError, from, parseFilter } from "../src/mod.ts";
import { ids, people } from "./fixtures.ts";

Deno.test("orderBy and limit", () => {
  assert.deepEqual(ids(from(people).where("age > 20").orderBy("age", "desc").limit(2).rows()), [5, 3]);
});

Deno.test("chained where clauses are ANDed", () => {
  assert.deepEqual(ids(from(people).where("city = 'Paris'").where("age < 30").rows()), [4]);
});

Deno.test("syntax errors carry the offset", () => {
  assert.throws(() => parseFilter("age >= "), (e) => e instanceof FilterSyntaxError && e.pos === 7);
  assert.throws(() => parseFilter("name = 'x"), /unterminated string at 7/);
});
