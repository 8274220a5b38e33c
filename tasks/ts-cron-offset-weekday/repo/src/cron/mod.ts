export { CronSyntaxError } from "./field.ts";
export { type CronExpression, matchesDay, parseCron } from "./expression.ts";
export { nextRun, nextRuns } from "./next.ts";
