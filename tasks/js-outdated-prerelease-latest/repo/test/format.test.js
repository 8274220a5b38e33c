import { test } from "node:test";
import assert from "node:assert/strict";
import { formatTable } from "../src/index.js";

test("aligns columns", () => {
  const table = formatTable([
    { name: "a", current: "1.0.0", wanted: "1.0.1", latest: "2.0.0", type: "major", dev: false },
    { name: "longer-name", current: null, wanted: "3.1.0", latest: "3.1.0", type: "missing", dev: true },
  ]);
  assert.equal(
    table,
    [
      "Package            Current  Wanted  Latest  Type",
      "a                  1.0.0    1.0.1   2.0.0   major",
      "longer-name (dev)  -        3.1.0   3.1.0   missing",
    ].join("\n"),
  );
});
