/** Rendering into a container, remembering what was rendered there last time. */
import type { MockDocument, MockElement } from "../dom/mod.ts";
import { mount } from "./mount.ts";
import { patch } from "./patch.ts";
import type { VNode } from "./vnode.ts";

const rendered = new WeakMap<MockElement, VNode>();

/** Renders `vnode` as the only child of `container`, patching the previous render. */
export function render(container: MockElement, vnode: VNode, doc: MockDocument): void {
  const previous = rendered.get(container);
  if (previous) patch(doc, previous, vnode);
  else container.appendChild(mount(vnode, doc));
  rendered.set(container, vnode);
}
