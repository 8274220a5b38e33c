export { applyRate, roundHalfUp, sum } from "./cents.ts";
export { formatCents, formatRate } from "./format.ts";
