import assert from "node:assert/strict";
import { h, MockDocument, mount } from "../src/mod.ts";

Deno.test("mount builds the DOM", () => {
  const doc = new MockDocument();
  const el = mount(h("p", { class: "note", hidden: false, id: 3 }, "a < b ", h("b", {}, "bold")), doc);
  assert.equal(el.toHTML(), '<p class="note" id="3">a &lt; b <b>bold</b></p>');
  assert.equal(doc.stats.created, 4);
});

Deno.test("keys are not rendered as attributes", () => {
  const doc = new MockDocument();
  assert.equal(mount(h("li", { key: "a", title: "x" }), doc).toHTML(), '<li title="x"></li>');
});

Deno.test("boolean props", () => {
  const doc = new MockDocument();
  assert.equal(mount(h("input", { disabled: true, checked: false }), doc).toHTML(), '<input disabled=""></input>');
});
