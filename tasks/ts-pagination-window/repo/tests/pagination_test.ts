import assert from "node:assert/strict";
import { pageOf, paginate } from "../src/paginate.ts";
import { pageWindow } from "../src/window.ts";
import { linkHeader, pageLinks } from "../src/links.ts";

Deno.test("paginate computes offsets and clamps", () => {
  const meta = paginate(95, { page: 99, perPage: 10 });
  assert.equal(meta.page, 10);
  assert.equal(meta.offset, 90);
  assert.equal(meta.count, 5);
  assert.equal(meta.hasNext, false);
  assert.equal(paginate(0).totalPages, 1);
});

Deno.test("pageOf slices items", () => {
  const { items } = pageOf([..."abcdefg"], { page: 2, perPage: 3 });
  assert.deepEqual(items, ["d", "e", "f"]);
});

Deno.test("window in the middle", () => {
  assert.deepEqual(pageWindow(5, 10), [1, "…", 3, 4, 5, 6, 7, "…", 10]);
});

Deno.test("window at the first page", () => {
  assert.deepEqual(pageWindow(1, 10), [1, 2, 3, 4, 5, "…", 10]);
});

Deno.test("window at the last page", () => {
  assert.deepEqual(pageWindow(10, 10), [1, "…", 6, 7, 8, 9, 10]);
});

Deno.test("link header", () => {
  const links = pageLinks(paginate(50, { page: 2, perPage: 10 }), "https://api.test/items?sort=name");
  assert.equal(links.next, "https://api.test/items?sort=name&page=3&per_page=10");
  assert.equal(
    linkHeader({ first: "a", last: "b", next: "c" }),
    '<a>; rel="first", <c>; rel="next", <b>; rel="last"',
  );
});
