import assert from "node:assert/strict";
import { Autocomplete } from "../src/autocomplete.ts";

// Imported lazily so the behaviour tests below run even before the modules exist.
const trieModule = () => import("../src/trie.ts");
const rankingModule = () => import("../src/ranking.ts");

Deno.test("Trie stores and finds exact keys", async () => {
  const { Trie } = await trieModule();
  const trie = new Trie<number>();
  trie.set("car", 1);
  trie.set("cart", 2);
  trie.set("car", 3);
  assert.equal(trie.get("car"), 3);
  assert.equal(trie.get("ca"), undefined);
  assert.equal(trie.has("cart"), true);
  assert.equal(trie.size, 2);
});

Deno.test("Trie lists values under a prefix", async () => {
  const { Trie } = await trieModule();
  const trie = new Trie<string>();
  for (const word of ["tea", "team", "teal", "ten", "to"]) trie.set(word, word.toUpperCase());
  assert.deepEqual(trie.valuesWithPrefix("tea").sort(), ["TEA", "TEAL", "TEAM"]);
  assert.deepEqual(trie.valuesWithPrefix("").length, 5);
  assert.deepEqual(trie.valuesWithPrefix("x"), []);
});

Deno.test("Trie delete", async () => {
  const { Trie } = await trieModule();
  const trie = new Trie<number>();
  trie.set("in", 1);
  trie.set("inn", 2);
  assert.equal(trie.delete("inn"), true);
  assert.equal(trie.delete("inn"), false);
  assert.equal(trie.delete("i"), false);
  assert.deepEqual(trie.valuesWithPrefix("in"), [1]);
  assert.equal(trie.size, 1);
});

Deno.test("Trie keys are not normalized", async () => {
  const { Trie } = await trieModule();
  const trie = new Trie<number>();
  trie.set("Abc", 1);
  assert.equal(trie.get("abc"), undefined);
});

Deno.test("compareSuggestions orders weight, recency, length, then name", async () => {
  const { compareSuggestions } = await rankingModule();
  const s = (display: string, weight: number, lastUsed = 0) => ({ display, weight, lastUsed });
  assert.ok(compareSuggestions(s("b", 2), s("a", 1)) < 0);
  assert.ok(compareSuggestions(s("a", 1, 1), s("b", 1, 5)) > 0);
  assert.ok(compareSuggestions(s("abc", 1), s("ab", 1)) > 0);
  assert.ok(compareSuggestions(s("ab", 1), s("ac", 1)) < 0);
  assert.equal(compareSuggestions(s("ab", 1), s("ab", 1)), 0);
});

Deno.test("topSuggestions sorts a copy and truncates", async () => {
  const { topSuggestions } = await rankingModule();
  const input = [
    { display: "Porto", weight: 1, lastUsed: 0 },
    { display: "Paris", weight: 3, lastUsed: 0 },
    { display: "Prague", weight: 1, lastUsed: 2 },
  ];
  assert.deepEqual(topSuggestions(input, 2).map((s) => s.display), ["Paris", "Prague"]);
  assert.equal(input[0].display, "Porto");
});

Deno.test("Autocomplete behaviour is unchanged", () => {
  const ac = new Autocomplete();
  for (const w of ["Tea", "Team", "Teal", "Ten", "Tokyo", "Téa Room"]) ac.add(w);
  ac.pick("Teal");
  ac.add("Ten", 1);
  assert.deepEqual(ac.suggest("te", 4), ["Teal", "Ten", "Tea", "Team"]);
  assert.deepEqual(ac.suggest("tea r"), ["Téa Room"]);
  assert.equal(ac.remove("TEAM"), true);
  assert.equal(ac.size, 5);
  assert.deepEqual(ac.suggestLastWord("green te", 2), ["Teal", "Ten"]);
});
