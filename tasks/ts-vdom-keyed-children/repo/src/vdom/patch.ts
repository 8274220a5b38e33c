/** Patching a mounted vnode into a new one, reusing DOM nodes where possible. */
import type { MockDocument, MockNode } from "../dom/mod.ts";
import { updateChildren } from "./children.ts";
import { mount } from "./mount.ts";
import { updateProps } from "./props.ts";
import { sameNode, type VNode } from "./vnode.ts";

/**
 * Brings the DOM of `oldVNode` (which must be mounted) in line with `newVNode` and returns
 * the resulting DOM node; `newVNode.dom` is set. Nodes that cannot be updated in place
 * (different tag, kind or key) are replaced.
 */
export function patch(doc: MockDocument, oldVNode: VNode, newVNode: VNode): MockNode {
  const dom = oldVNode.dom;
  if (!dom) throw new Error("patch: the old vnode is not mounted");
  if (!sameNode(oldVNode, newVNode)) {
    const replacement = mount(newVNode, doc);
    dom.parent?.replaceChild(replacement, dom);
    return replacement;
  }
  if (oldVNode.kind === "text" && newVNode.kind === "text") {
    if (oldVNode.text !== newVNode.text) oldVNode.dom!.data = newVNode.text;
    newVNode.dom = oldVNode.dom;
    return newVNode.dom!;
  }
  if (oldVNode.kind === "element" && newVNode.kind === "element") {
    const el = oldVNode.dom!;
    updateProps(el, oldVNode.props, newVNode.props);
    updateChildren(doc, el, oldVNode.children, newVNode.children);
    newVNode.dom = el;
    return el;
  }
  throw new Error("unreachable");
}
