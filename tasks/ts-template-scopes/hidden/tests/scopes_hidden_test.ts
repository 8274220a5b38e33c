import assert from "node:assert/strict";
import { render } from "../src/render.ts";
import { Context } from "../src/context.ts";

Deno.test("nested sections resolve innermost first", () => {
  const view = {
    title: "root",
    groups: [{ title: "G1", items: [{ title: "i1" }, { label: "no title" }] }],
  };
  assert.equal(render("{{#groups}}{{#items}}{{title}};{{/items}}{{/groups}}", view), "i1;G1;");
});

Deno.test("context lookup prefers the innermost view", () => {
  const ctx = Context.root({ a: 1, b: { c: 2 } }).push({ a: 10 }).push({ b: { d: 3 } });
  assert.equal(ctx.lookup("a"), 10);
  assert.equal(ctx.lookup("b.d"), 3);
  assert.equal(ctx.lookup("b.c"), undefined);
});

Deno.test("object sections shadow outer names", () => {
  assert.equal(render("{{#user}}{{name}}{{/user}} / {{name}}", { name: "site", user: { name: "Ann" } }), "Ann / site");
});

Deno.test("falsy values other than null and undefined render", () => {
  assert.equal(render("{{a}}|{{b}}|{{c}}|{{d}}", { a: 0, b: false, c: "", d: null }), "0|false||");
  assert.equal(render("{{#xs}}{{.}}{{/xs}}", { xs: [0, 1, 0] }), "010");
});

Deno.test("falsy values still skip sections", () => {
  assert.equal(render("{{#n}}yes{{/n}}{{^n}}no{{/n}}", { n: 0 }), "no");
});

Deno.test("escaping is unchanged", () => {
  assert.equal(render("{{q}}", { q: `"x" & 'y'` }), "&quot;x&quot; &amp; &#39;y&#39;");
});
