/** Minimal schema checks: required keys and their types, reported all at once. */
import type { Config } from "./config.ts";

export type SettingType = "string" | "number" | "boolean" | "array" | "block";

/** Dotted path -> expected type; a trailing "?" on the path marks it optional. */
export type Schema = Record<string, SettingType>;

function typeOf(value: unknown): SettingType | "missing" {
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "array";
  if (typeof value === "object") return "block";
  return typeof value as SettingType;
}

/** Every problem with `config` against `schema`, e.g. `database.port: expected number, got string`. */
export function check(config: Config, schema: Schema): string[] {
  const problems: string[] = [];
  for (const [rawPath, expected] of Object.entries(schema)) {
    const optional = rawPath.endsWith("?");
    const path = optional ? rawPath.slice(0, -1) : rawPath;
    const actual = typeOf(config.get(path));
    if (actual === "missing" && optional) continue;
    if (actual !== expected) problems.push(`${path}: expected ${expected}, got ${actual}`);
  }
  return problems;
}
