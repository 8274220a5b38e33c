import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { patchgymCommand } from "../src/hint.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

// Issue 25: hints named "patchgym show ..." though a README user has only "deno task patchgym".
Deno.test("patchgymCommand() names deno task patchgym inside the checkout", () => {
  assert.equal(patchgymCommand("show runs/r", ROOT), "deno task patchgym show runs/r");
  assert.equal(patchgymCommand("tasks", join(ROOT, "docs")), "deno task patchgym tasks");
});

Deno.test("patchgymCommand() adds --config with the checkout's deno.json from another folder", () => {
  assert.equal(
    patchgymCommand("rollout --resume /tmp/r", "/"),
    `deno task --config ${join(ROOT, "deno.json")} patchgym rollout --resume /tmp/r`,
  );
});
