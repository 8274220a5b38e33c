/** Creating DOM nodes for vnodes. */
import type { MockDocument, MockNode } from "../dom/mod.ts";
import { updateProps } from "./props.ts";
import type { VNode } from "./vnode.ts";

/** Creates the DOM subtree for `vnode` (recording it in `vnode.dom`) and returns its root. */
export function mount(vnode: VNode, doc: MockDocument): MockNode {
  if (vnode.kind === "text") {
    vnode.dom = doc.createTextNode(vnode.text);
    return vnode.dom;
  }
  const el = doc.createElement(vnode.tag);
  updateProps(el, {}, vnode.props);
  for (const child of vnode.children) el.appendChild(mount(child, doc));
  vnode.dom = el;
  return el;
}
