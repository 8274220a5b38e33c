import assert from "node:assert/strict";
import { Autocomplete } from "../src/autocomplete.ts";

function cities(): Autocomplete {
  const ac = new Autocomplete();
  for (const city of ["Paris", "Parma", "Pamplona", "Porto", "Prague", "New York", "York", "Yokohama"]) ac.add(city);
  return ac;
}

Deno.test("suggest by prefix, shorter and alphabetical on ties", () => {
  assert.deepEqual(cities().suggest("pa"), ["Paris", "Parma", "Pamplona"]);
});

Deno.test("weight wins over length", () => {
  const ac = cities();
  ac.add("Pamplona", 2);
  assert.deepEqual(ac.suggest("pa", 2), ["Pamplona", "Paris"]);
});

Deno.test("recent picks rank first among equal weights", () => {
  const ac = cities();
  ac.pick("Parma");
  ac.pick("Paris");
  ac.pick("Pamplona");
  assert.deepEqual(ac.suggest("pa"), ["Pamplona", "Paris", "Parma"]);
});

Deno.test("normalization ignores case and accents", () => {
  const ac = new Autocomplete();
  ac.add("Café Central");
  assert.deepEqual(ac.suggest("CAFE c"), ["Café Central"]);
});

Deno.test("remove prunes terms", () => {
  const ac = cities();
  assert.equal(ac.remove("parma"), true);
  assert.equal(ac.remove("parma"), false);
  assert.equal(ac.size, 7);
  assert.deepEqual(ac.suggest("par"), ["Paris"]);
});

Deno.test("suggestLastWord falls back to the last word", () => {
  assert.deepEqual(cities().suggestLastWord("new yo", 3), ["New York", "York", "Yokohama"]);
});
