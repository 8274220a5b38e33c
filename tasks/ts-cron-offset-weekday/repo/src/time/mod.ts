export { formatOffset, OffsetError, parseOffset } from "./offset.ts";
export { formatLocal, fromWallClock, toWallClock, type WallClock } from "./wallclock.ts";
