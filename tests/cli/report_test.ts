import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reportCommand } from "../../src/cli/report.ts";
import { fakeRecord } from "../trajectory/_records.ts";
import { capture } from "./_capture.ts";

Deno.test("reportCommand() rebuilds report.html from a run folder", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-report-cli-" });
  try {
    const record = fakeRecord({
      episode: "run-1/a/0",
      group: "a",
      sample: 0,
      resolved: true,
      tokens: [],
    });
    writeFileSync(join(dir, "trajectories.jsonl"), `${JSON.stringify(record)}\nnot json\n\n`);
    writeFileSync(
      join(dir, "summary.json"),
      JSON.stringify({ run_id: "run-1", token_drift_rate: 0 }),
    );
    const result = await capture(() => reportCommand([dir]));
    assert.equal(result.code, 0);
    assert.match(result.out, /^Wrote .*report\.html \(1 episodes\)/);
    assert.match(result.err, /Skipped 1 bad lines of ".*trajectories\.jsonl" \(lines 2\)/);
    const html = readFileSync(join(dir, "report.html"), "utf8");
    assert.match(html, /<title>patchgym run run-1<\/title>/);
    assert.match(html, /"token_drift_rate":0/);
    await assert.rejects(() => reportCommand([]), /report: expected one run folder, got 0/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
