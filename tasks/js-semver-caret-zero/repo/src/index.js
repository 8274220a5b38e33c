export { parseVersion, Version } from "./version.js";
export { compare, eq, gt, gte, lt, lte } from "./compare.js";
export { maxSatisfying, parseRange, satisfies } from "./range.js";
