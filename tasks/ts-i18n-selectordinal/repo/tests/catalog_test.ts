import assert from "node:assert/strict";
import { Catalog } from "../src/mod.ts";

const catalog = new Catalog({
  en: { inbox: "{n, plural, one {# message} other {# messages}}", bye: "Bye" },
  fr: { inbox: "{n, plural, one {# message} other {# messages}}" },
  "fr-CA": { bye: "Salut" },
});

Deno.test("Catalog falls back from region to language to default", () => {
  assert.equal(catalog.t("fr-CA", "bye"), "Salut");
  assert.equal(catalog.t("fr-CA", "inbox", { n: 0 }), "0 message");
  assert.equal(catalog.t("de", "bye"), "Bye");
});

Deno.test("Catalog reports unknown ids", () => {
  assert.throws(() => catalog.t("en", "nope"), /no message "nope" for en/);
});
