/** Reconciling the children of an element. */
import type { MockDocument, MockElement } from "../dom/mod.ts";
import { mount } from "./mount.ts";
import type { VNode } from "./vnode.ts";
import { patch } from "./patch.ts";

/**
 * Updates `parent`'s DOM children from `oldChildren` to `newChildren`, pairing them by
 * position: the i-th old child is patched into the i-th new one, extra new children are
 * appended and extra old ones removed.
 */
export function updateChildren(
  doc: MockDocument,
  parent: MockElement,
  oldChildren: VNode[],
  newChildren: VNode[],
): void {
  const common = Math.min(oldChildren.length, newChildren.length);
  for (let i = 0; i < common; i++) patch(doc, oldChildren[i], newChildren[i]);
  for (let i = common; i < newChildren.length; i++) parent.appendChild(mount(newChildren[i], doc));
  for (let i = common; i < oldChildren.length; i++) parent.removeChild(oldChildren[i].dom!);
}
