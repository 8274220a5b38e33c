/**
 * Encoding nested objects back into `a[b][0]=1` form.
 */
import { encodeComponent } from "./escape.ts";
import type { FormValue } from "./decode.ts";

/** How arrays are written: `a[0]=x&a[1]=y` (`indices`, the default) or `a[]=x&a[]=y` (`brackets`). */
export type ArrayFormat = "indices" | "brackets";

/** Options for {@linkcode stringify}. */
export interface StringifyOptions {
  arrayFormat?: ArrayFormat;
  /** Keep brackets readable (`a[b]=1` instead of `a%5Bb%5D=1`); default true. */
  readableBrackets?: boolean;
}

/** Serializes a nested object; `undefined` and `null` values are skipped. */
export function stringify(
  value: Record<string, FormValue | number | boolean | null | undefined>,
  options: StringifyOptions = {},
): string {
  const format = options.arrayFormat ?? "indices";
  const readable = options.readableBrackets ?? true;
  const pairs: string[] = [];
  const emit = (key: string, leaf: string) => {
    let encodedKey = encodeComponent(key);
    if (readable) encodedKey = encodedKey.replace(/%5B/g, "[").replace(/%5D/g, "]");
    pairs.push(`${encodedKey}=${encodeComponent(leaf)}`);
  };
  const walk = (prefix: string, node: unknown): void => {
    if (node === null || node === undefined) return;
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        const key = format === "brackets" && !isContainer(item) ? `${prefix}[]` : `${prefix}[${index}]`;
        walk(key, item);
      });
      return;
    }
    if (typeof node === "object") {
      for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
        walk(prefix === "" ? key : `${prefix}[${key}]`, child);
      }
      return;
    }
    emit(prefix, String(node));
  };
  walk("", value);
  return pairs.join("&");
}

function isContainer(value: unknown): boolean {
  return typeof value === "object" && value !== null;
}
