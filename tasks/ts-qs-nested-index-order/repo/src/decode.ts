/**
 * Decoding `a[b][]=1&a[c]=2` into nested objects and arrays.
 *
 * Values are collected into plain objects first, because indexed keys may arrive in any order
 * (`a[2]=x&a[0]=y`) or with gaps. A final pass turns every object whose keys are all indices into
 * a dense array, in index order.
 */
import { decodeComponent } from "./escape.ts";
import { isIndex, parseKey } from "./keys.ts";

/** A decoded value: a string, or nested objects and arrays of them. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

/** A decoded query string or form body. */
export type FormObject = { [key: string]: FormValue };

type Draft = { [key: string]: Draft | string } | Draft[] | string;

const APPEND = Symbol("append");

/** Parses a query string (a leading `?` is ignored) into a nested object. */
export function parse(query: string): FormObject {
  const root: Record<string, Draft> = {};
  const text = query.startsWith("?") ? query.slice(1) : query;
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? "" : pair.slice(eq + 1);
    const key = decodeComponent(rawKey);
    if (key === "") continue;
    assign(root, parseKey(key), decodeComponent(rawValue));
  }
  return compact(root) as FormObject;
}

function assign(root: Record<string, Draft>, path: string[], value: string): void {
  let node: Record<string, Draft> | Draft[] = root;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i] === "" ? APPEND : path[i];
    const last = i === path.length - 1;
    if (segment === APPEND) {
      const list: Draft[] = Array.isArray(node) ? node : appendTarget(node);
      if (last) {
        list.push(value);
        return;
      }
      const child: Record<string, Draft> = {};
      list.push(child);
      node = child;
      continue;
    }
    const holder = node as Record<string, Draft>;
    if (last) {
      const existing = holder[segment];
      if (Array.isArray(existing)) existing.push(value);
      else if (typeof existing === "string") holder[segment] = [existing, value];
      else holder[segment] = value;
      return;
    }
    const next = path[i + 1];
    let child = holder[segment];
    if (child === undefined || typeof child === "string") {
      child = next === "" ? [] : {};
      holder[segment] = child;
    }
    node = child as Record<string, Draft> | Draft[];
  }
}

/** `a[x]=1&a[]=2`: appending to an object stores the value under the next free index. */
function appendTarget(node: Record<string, Draft>): Draft[] {
  const list: Draft[] = [];
  const proxy = {
    push(value: Draft): number {
      let index = 0;
      while (String(index) in node) index++;
      node[String(index)] = value;
      return index + 1;
    },
  };
  return Object.assign(list, proxy);
}

/** Turns objects whose keys are all indices into dense arrays, recursively. */
function compact(draft: Draft): FormValue {
  if (typeof draft === "string") return draft;
  if (Array.isArray(draft)) return draft.map(compact);
  const keys = Object.keys(draft);
  if (keys.length > 0 && keys.every(isIndex)) {
    // Sorted so gaps and out-of-order indices still come out in index order.
    return keys.sort().map((key) => compact(draft[key]));
  }
  const out: { [key: string]: FormValue } = {};
  for (const key of keys) out[key] = compact(draft[key]);
  return out;
}
