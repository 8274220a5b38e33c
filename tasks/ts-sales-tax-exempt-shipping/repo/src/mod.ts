/** Public API of taxline. */
export * from "./jurisdictions/mod.ts";
export * from "./money/mod.ts";
export * from "./tax/mod.ts";
export { lineAmount, type Order, type OrderLine } from "./order.ts";
