/** Public entry point of the duration library. */
export { duration, type Duration, isZero } from "./duration.ts";
export { DurationSyntaxError, parseDuration } from "./parse.ts";
export { formatDuration } from "./format.ts";
export { fromSeconds, toSeconds } from "./convert.ts";
