export { type DomStats, MockDocument } from "./document.ts";
export { MockElement, type MockNode, MockText } from "./nodes.ts";
