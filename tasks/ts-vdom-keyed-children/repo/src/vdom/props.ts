/** Applying prop changes to attributes. `false`, null and undefined remove the attribute. */
import type { MockElement } from "../dom/mod.ts";
import type { Props, PropValue } from "./vnode.ts";

function attributeValue(value: PropValue): string | null {
  if (value === false || value === null || value === undefined) return null;
  return value === true ? "" : String(value);
}

export function updateProps(el: MockElement, oldProps: Props, newProps: Props): void {
  for (const name of Object.keys(oldProps)) {
    if (!(name in newProps)) el.removeAttribute(name);
  }
  for (const [name, value] of Object.entries(newProps)) {
    if (oldProps[name] === value && el.attributes.has(name) === (attributeValue(value) !== null)) continue;
    const attr = attributeValue(value);
    if (attr === null) el.removeAttribute(name);
    else el.setAttribute(name, attr);
  }
}
