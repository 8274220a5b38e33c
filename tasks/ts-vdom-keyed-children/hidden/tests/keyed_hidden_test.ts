import assert from "node:assert/strict";
import { h, MockDocument, type MockElement, type MockNode, render } from "../src/mod.ts";

function list(keys: string[]) {
  return h("ul", {}, ...keys.map((k) => h("li", { key: k }, k)));
}

function setup(keys: string[]) {
  const doc = new MockDocument();
  const root = doc.createElement("div");
  render(root, list(keys), doc);
  const ul = root.childNodes[0] as MockElement;
  const byText = new Map<string, MockNode>(ul.childNodes.map((n) => [(n as MockElement).textContent, n]));
  doc.resetStats();
  return { doc, root, ul, byText };
}

const html = (ul: MockElement) => ul.childNodes.map((n) => (n as MockElement).textContent).join(",");

Deno.test("reversing keyed items reuses every node", () => {
  const { doc, root, ul, byText } = setup(["a", "b", "c"]);
  render(root, list(["c", "b", "a"]), doc);
  assert.equal(html(ul), "c,b,a");
  assert.equal(ul.childNodes[0], byText.get("c"));
  assert.equal(ul.childNodes[2], byText.get("a"));
  assert.equal(doc.stats.created, 0);
});

Deno.test("inserting in the middle creates only the new item", () => {
  const { doc, root, ul, byText } = setup(["a", "c"]);
  render(root, list(["a", "b", "c"]), doc);
  assert.equal(html(ul), "a,b,c");
  assert.equal(ul.childNodes[2], byText.get("c"));
  assert.equal(doc.stats.created, 2);
});

Deno.test("removing the first keyed item keeps the others", () => {
  const { doc, root, ul, byText } = setup(["a", "b", "c"]);
  render(root, list(["b", "c"]), doc);
  assert.equal(html(ul), "b,c");
  assert.equal(ul.childNodes[0], byText.get("b"));
  assert.equal(doc.stats.created, 0);
});

Deno.test("DOM state follows its key when items move", () => {
  const { doc, root, ul, byText } = setup(["a", "b", "c", "d"]);
  (byText.get("b") as MockElement).setAttribute("data-focused", "yes");
  render(root, list(["d", "a", "c", "b"]), doc);
  assert.equal((ul.childNodes[3] as MockElement).getAttribute("data-focused"), "yes");
  assert.equal(html(ul), "d,a,c,b");
});

Deno.test("appending a keyed item inserts exactly one node", () => {
  const { doc, root } = setup(["a", "b"]);
  render(root, h("ul", {}, h("li", { key: "a" }, "a"), h("li", { key: "b" }, "b"), h("li", { key: "z" })), doc);
  assert.equal(doc.stats.inserted, 1);
});

Deno.test("a keyed item whose tag changed is replaced in place", () => {
  const { doc, root, ul, byText } = setup(["a", "b"]);
  render(root, h("ul", {}, h("li", { key: "b" }, "b"), h("p", { key: "a" }, "a")), doc);
  assert.equal(root.toHTML(), "<div><ul><li>b</li><p>a</p></ul></div>");
  assert.equal(ul.childNodes[0], byText.get("b"));
});

Deno.test("keyed and unkeyed siblings", () => {
  const doc = new MockDocument();
  const root = doc.createElement("div");
  render(root, h("div", {}, h("h2", {}, "title"), h("p", { key: "x" }, "x"), h("p", { key: "y" }, "y")), doc);
  const outer = root.childNodes[0] as MockElement;
  const [title, x, y] = outer.childNodes;
  doc.resetStats();
  render(root, h("div", {}, h("p", { key: "y" }, "y"), h("h2", {}, "title 2"), h("p", { key: "x" }, "x")), doc);
  assert.deepEqual(outer.childNodes, [y, title, x]);
  assert.equal(outer.toHTML(), "<div><p>y</p><h2>title 2</h2><p>x</p></div>");
  assert.equal(doc.stats.created, 0);
});

Deno.test("duplicate keys are an error", () => {
  const { doc, root } = setup(["a"]);
  assert.throws(() => render(root, list(["a", "a"]), doc), /duplicate key "a"/);
});

Deno.test("unkeyed lists still patch by position", () => {
  const doc = new MockDocument();
  const root = doc.createElement("div");
  render(root, h("ol", {}, h("li", {}, "1"), h("li", {}, "2")), doc);
  const ol = root.childNodes[0] as MockElement;
  const second = ol.childNodes[1];
  render(root, h("ol", {}, h("li", {}, "2")), doc);
  assert.equal(ol.toHTML(), "<ol><li>2</li></ol>");
  assert.notEqual(ol.childNodes[0], second);
});
