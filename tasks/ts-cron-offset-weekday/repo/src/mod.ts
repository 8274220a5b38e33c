/** Public API of tickr. */
export { Scheduler, type PlannedRun } from "./scheduler/scheduler.ts";
export type { JobDefinition } from "./scheduler/job.ts";
export { CronSyntaxError, nextRun, nextRuns, parseCron } from "./cron/mod.ts";
export { formatOffset, OffsetError, parseOffset, toWallClock } from "./time/mod.ts";
