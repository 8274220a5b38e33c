/** Public API of tinyvdom. */
export { MockDocument, MockElement, type MockNode, MockText } from "./dom/mod.ts";
export { h, type Key, type Props, sameNode, text, type VElement, type VNode, type VText } from "./vdom/vnode.ts";
export { mount } from "./vdom/mount.ts";
export { patch } from "./vdom/patch.ts";
export { render } from "./vdom/render.ts";
