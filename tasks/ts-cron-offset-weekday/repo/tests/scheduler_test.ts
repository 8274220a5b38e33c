import assert from "node:assert/strict";
import { Scheduler } from "../src/mod.ts";

Deno.test("plan orders runs across jobs", () => {
  const scheduler = new Scheduler()
    .add({ id: "reports", cron: "0 9 * * *", utcOffset: "+02:00" })
    .add({ id: "cleanup", cron: "0 7 * * *" });
  const runs = scheduler.plan(new Date("2026-05-04T00:00:00Z"), new Date("2026-05-05T00:00:00Z"));
  assert.deepEqual(runs.map((r) => [r.jobId, r.at.toISOString()]), [
    ["cleanup", "2026-05-04T07:00:00.000Z"],
    ["reports", "2026-05-04T07:00:00.000Z"],
  ]);
  assert.equal(runs[1].local, "2026-05-04T09:00+02:00");
});

Deno.test("due lists jobs firing this minute", () => {
  const scheduler = new Scheduler()
    .add({ id: "a", cron: "*/5 * * * *" })
    .add({ id: "b", cron: "0 * * * *", enabled: false });
  assert.deepEqual(scheduler.due(new Date("2026-05-04T10:00:42Z")), ["a"]);
  assert.deepEqual(scheduler.due(new Date("2026-05-04T10:01:00Z")), []);
});

Deno.test("nextRunOf for unknown or disabled jobs", () => {
  const scheduler = new Scheduler().add({ id: "off", cron: "* * * * *", enabled: false });
  assert.equal(scheduler.nextRunOf("off", new Date()), null);
  assert.equal(scheduler.nextRunOf("missing", new Date()), null);
});
