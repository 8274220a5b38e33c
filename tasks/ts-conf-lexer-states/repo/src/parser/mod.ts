export { parse } from "./parser.ts";
export { type ConfBlock, type ConfValue, isBlock } from "./values.ts";
