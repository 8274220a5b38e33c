import assert from "node:assert/strict";
import { Autocomplete } from "../src/autocomplete.ts";
import { SearchBox } from "../src/searchbox.ts";

function box(): SearchBox {
  const index = new Autocomplete();
  for (const term of ["red shoes", "red scarf", "running shoes", "rain coat"]) index.add(term);
  return new SearchBox(index, 3);
}

Deno.test("typing shows ranked suggestions", () => {
  const b = box();
  b.type("red s");
  assert.deepEqual(b.suggestions, ["red scarf", "red shoes"]);
  b.type("  ");
  assert.deepEqual(b.suggestions, []);
});

Deno.test("highlight wraps around", () => {
  const b = box();
  b.type("r");
  b.move(-1);
  assert.equal(b.highlighted, b.suggestions[2]);
  b.move(1);
  assert.equal(b.highlighted, b.suggestions[0]);
});

Deno.test("submitting a suggestion ranks it first next time", () => {
  const b = box();
  b.type("red s");
  b.move(1);
  b.move(1);
  assert.equal(b.submit(), "red shoes");
  b.type("red");
  assert.equal(b.suggestions[0], "red shoes");
});
