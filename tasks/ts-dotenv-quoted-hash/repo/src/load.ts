/** Turning .env text into a variables object. */
import { expand } from "./expand.ts";
import { parseEnv } from "./parse.ts";

export interface LoadOptions {
  /** Variables that already exist (e.g. the process environment). */
  base?: Record<string, string>;
  /** Let the file override `base` values. Default false. */
  override?: boolean;
}

/**
 * Parse and expand a .env file. References see earlier entries of the same
 * file and `base`. Returns only the variables defined by the file (a key
 * present in `base` keeps the base value unless `override` is set).
 */
export function loadEnv(text: string, options: LoadOptions = {}): Record<string, string> {
  const { base = {}, override = false } = options;
  const out: Record<string, string> = {};
  const lookup = (name: string) => out[name] ?? base[name];
  for (const entry of parseEnv(text)) {
    if (!override && Object.hasOwn(base, entry.key)) {
      out[entry.key] = base[entry.key];
      continue;
    }
    out[entry.key] = entry.expand ? expand(entry.value, lookup) : entry.value;
  }
  return out;
}
