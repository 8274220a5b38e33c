/**
 * textflow: word wrapping and justification for terminals, aware of wide characters.
 */
export { displayWidth, isWide, padEnd } from "./width.ts";
export { splitWord, wrap, wrapWords } from "./wrap.ts";
export type { WrapOptions } from "./wrap.ts";
export { justify, justifyLine } from "./justify.ts";
export { formatText, paragraphs } from "./format.ts";
export type { FormatOptions } from "./format.ts";
