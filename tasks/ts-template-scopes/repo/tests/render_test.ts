import assert from "node:assert/strict";
import { render } from "../src/render.ts";
import { TemplateError } from "../src/lexer.ts";

Deno.test("variables are escaped unless triple-braced", () => {
  const view = { who: "<b>Ann</b>" };
  assert.equal(render("Hi {{who}}!", view), "Hi &lt;b&gt;Ann&lt;/b&gt;!");
  assert.equal(render("Hi {{{who}}} {{& who}}", view), "Hi <b>Ann</b> <b>Ann</b>");
});

Deno.test("dotted names and comments", () => {
  assert.equal(render("{{! ignored }}{{user.address.city}}", { user: { address: { city: "Oslo" } } }), "Oslo");
  assert.equal(render("[{{user.missing.city}}]", { user: {} }), "[]");
});

Deno.test("sections iterate arrays", () => {
  const view = { items: [{ n: "a" }, { n: "b" }] };
  assert.equal(render("{{#items}}<{{n}}>{{/items}}", view), "<a><b>");
  assert.equal(render("{{#items}}x{{/items}}{{^items}}none{{/items}}", { items: [] }), "none");
});

Deno.test("section items shadow outer names", () => {
  const view = { name: "list", people: [{ name: "Ann" }, { name: "Bob" }] };
  assert.equal(render("{{name}}: {{#people}}{{name}} {{/people}}", view), "list: Ann Bob ");
});

Deno.test("outer names are visible inside sections", () => {
  const view = { sep: ",", xs: [1, 2, 3] };
  assert.equal(render("{{#xs}}{{.}}{{sep}}{{/xs}}", view), "1,2,3,");
});

Deno.test("zero is rendered", () => {
  assert.equal(render("{{count}} items, {{missing}}.", { count: 0 }), "0 items, .");
});

Deno.test("partials share the context", () => {
  assert.equal(render("{{#u}}{{> card}}{{/u}}", { u: { name: "Zoe" } }, { card: "[{{name}}]" }), "[Zoe]");
});

Deno.test("unbalanced sections are errors", () => {
  assert.throws(() => render("{{#a}}{{/b}}", {}), TemplateError);
  assert.throws(() => render("{{#a}}", {}), TemplateError);
});
