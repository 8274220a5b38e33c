import assert from "node:assert/strict";
import { jaro, jaroWinkler, suggest } from "../src/mod.ts";

const round = (x: number) => Math.round(x * 10000) / 10000;

Deno.test("jaro matches the textbook examples", () => {
  assert.equal(round(jaro("MARTHA", "MARHTA")), 0.9444);
  assert.equal(round(jaro("DIXON", "DICKSONX")), 0.7667);
  assert.equal(jaro("abc", "xyz"), 0);
});

Deno.test("jaroWinkler boosts short shared prefixes", () => {
  assert.equal(round(jaroWinkler("MARTHA", "MARHTA")), 0.9611);
  assert.equal(round(jaroWinkler("DIXON", "DICKSONX")), 0.8133);
  assert.equal(round(jaroWinkler("JELLYFISH", "SMELLYFISH")), 0.8963);
});

Deno.test("suggest ranks close commands first", () => {
  assert.deepEqual(suggest("stauts", ["status", "stash", "commit"]).map((s) => s.value), ["status", "stash"]);
  assert.deepEqual(suggest("zzz", ["status"]), []);
});
