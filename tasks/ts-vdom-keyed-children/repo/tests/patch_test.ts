import assert from "node:assert/strict";
import { h, MockDocument, type MockElement, render } from "../src/mod.ts";

function setup() {
  const doc = new MockDocument();
  const root = doc.createElement("div");
  return { doc, root };
}

Deno.test("props and text update in place", () => {
  const { doc, root } = setup();
  render(root, h("p", { class: "a", title: "t" }, "one"), doc);
  const p = root.childNodes[0];
  doc.resetStats();
  render(root, h("p", { class: "b" }, "two"), doc);
  assert.equal(root.childNodes[0], p);
  assert.equal(root.toHTML(), '<div><p class="b">two</p></div>');
  assert.equal(doc.stats.created, 0);
});

Deno.test("unkeyed children are matched by position", () => {
  const { doc, root } = setup();
  render(root, h("ul", {}, h("li", {}, "a"), h("li", {}, "b")), doc);
  const first = (root.childNodes[0] as MockElement).childNodes[0];
  render(root, h("ul", {}, h("li", {}, "x"), h("li", {}, "b"), h("li", {}, "c")), doc);
  const ul = root.childNodes[0] as MockElement;
  assert.equal(ul.childNodes[0], first);
  assert.equal(ul.toHTML(), "<ul><li>x</li><li>b</li><li>c</li></ul>");
});

Deno.test("removing trailing children", () => {
  const { doc, root } = setup();
  render(root, h("ul", {}, h("li", {}, "a"), h("li", {}, "b"), h("li", {}, "c")), doc);
  render(root, h("ul", {}, h("li", {}, "a")), doc);
  assert.equal(root.toHTML(), "<div><ul><li>a</li></ul></div>");
});

Deno.test("a different tag replaces the node", () => {
  const { doc, root } = setup();
  render(root, h("section", {}, h("p", {}, "x")), doc);
  render(root, h("section", {}, h("h1", {}, "x")), doc);
  assert.equal(root.toHTML(), "<div><section><h1>x</h1></section></div>");
});
