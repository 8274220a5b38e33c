/** Virtual nodes. */
import type { MockElement, MockText } from "../dom/mod.ts";

export type PropValue = string | number | boolean | null | undefined;
export type Props = Record<string, PropValue>;
export type Key = string | number;

export interface VElement {
  kind: "element";
  tag: string;
  props: Props;
  /** Identity among siblings; taken from the `key` prop and never rendered. */
  key?: Key;
  children: VNode[];
  /** The DOM node this vnode is mounted as (set by mount/patch). */
  dom?: MockElement;
}

export interface VText {
  kind: "text";
  text: string;
  dom?: MockText;
}

export type VNode = VElement | VText;

export type Child = VNode | string | number | null | undefined | false;

/** Creates an element vnode; strings become text nodes and null/false children are dropped. */
export function h(tag: string, props: Props & { key?: Key } = {}, ...children: Child[]): VElement {
  const { key, ...rest } = props;
  return {
    kind: "element",
    tag,
    props: rest,
    key: key ?? undefined,
    children: children
      .filter((c): c is VNode | string | number => c !== null && c !== undefined && c !== false)
      .map((c) => (typeof c === "object" ? c : text(String(c)))),
  };
}

export function text(value: string): VText {
  return { kind: "text", text: value };
}

/** True when `b` can update `a` in place (same kind, same tag, same key). */
export function sameNode(a: VNode, b: VNode): boolean {
  if (a.kind === "text" || b.kind === "text") return a.kind === b.kind;
  return a.tag === b.tag && a.key === b.key;
}
