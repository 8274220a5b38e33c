import assert from "node:assert/strict";
import { jaroWinkler, suggest } from "../src/mod.ts";

const round = (x: number) => Math.round(x * 10000) / 10000;

Deno.test("jaroWinkler caps the prefix bonus at four characters", () => {
  assert.equal(round(jaroWinkler("abcdefghij", "abcdefghiz")), 0.96);
});

Deno.test("jaroWinkler never exceeds 1 for long shared prefixes", () => {
  assert.equal(round(jaroWinkler("interstellar", "interstellas")), 0.9667);
});

Deno.test("jaroWinkler of long near-duplicates", () => {
  assert.equal(round(jaroWinkler("configuration", "configurations")), 0.9857);
});

Deno.test("suggest ranks the closest long name first", () => {
  assert.equal(suggest("deploy-stagin", ["deploy-production", "deploy-staging", "deploy-stage"])[0].value, "deploy-staging");
});

Deno.test("suggest scores stay within one", () => {
  assert.deepEqual(suggest("transactionz", ["transactions", "transaction_log"]).map((s) => s.value), ["transactions", "transaction_log"]);
});

Deno.test("jaroWinkler keeps short-prefix scores", () => {
  assert.equal(round(jaroWinkler("DWAYNE", "DUANE")), 0.84);
});

Deno.test("jaroWinkler of identical strings is exactly 1", () => {
  assert.equal(jaroWinkler("identical-name", "identical-name"), 1);
});
