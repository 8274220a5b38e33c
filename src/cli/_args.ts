/** Command-line parsing shared by the subcommands: strict flags, usage errors with the fix. */
import { patchgymCommand } from "../hint.ts";
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "../errors.ts";
import { didYouMean } from "../suggest.ts";

/** Flag definitions for node's `parseArgs`. */
export type Flags = NonNullable<ParseArgsConfig["options"]>;

/** Parse `args` strictly; unknown flags and missing values become a {@linkcode UsageError}. */
export function parseFlags<F extends Flags>(
  command: string,
  args: string[],
  flags: F,
  options: { positionals?: boolean } = {},
) {
  try {
    return parseArgs({
      args,
      options: { ...flags, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: options.positionals ?? false,
    });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify.*$/s, "");
    const unknown = /^Unknown option '(--?[^']+)'/.exec(message)?.[1];
    const hint = unknown?.startsWith("--")
      ? didYouMean(unknown.slice(2).split("=")[0], [...Object.keys(flags), "help"], "--")
      : "";
    throw new UsageError(
      `${command}: ${message}${hint}; run "${patchgymCommand(`${command} --help`)}"`,
    );
  }
}

/** A whole number flag within bounds, or the default. */
export function intFlag(
  name: string,
  value: string | undefined,
  fallback: number,
  min = 1,
  max = 1_000_000,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(
      `--${name}: expected a whole number from ${min} to ${max}, got "${value}"`,
    );
  }
  return n;
}

/** A number flag, or undefined. */
export function numberFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`--${name}: expected a number, got "${value}"`);
  return n;
}

/** One of a closed set of values, or the default. */
export function choiceFlag<T extends string>(
  name: string,
  value: string | undefined,
  choices: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!(choices as readonly string[]).includes(value)) {
    throw new UsageError(`--${name}: expected one of ${choices.join(", ")}, got "${value}"`);
  }
  return value as T;
}

/** A comma-separated list flag, or undefined. */
export function listFlag(value: string | undefined): string[] | undefined {
  return value?.split(",").map((s) => s.trim()).filter(Boolean);
}

/** Read an environment variable; undefined when unset or not permitted. */
export function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/** Print `value` as indented JSON on stdout. */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

/**
 * Read a text file a user named in `command`'s arguments; a missing file, a folder or an
 * unreadable file is a {@linkcode UsageError} with one line.
 */
export function readInput(command: string, path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`${command}: cannot read "${path}": ${ioReason(error)}`);
  }
}

/** Write a file a user named (text or bytes); failures become a {@linkcode UsageError} with one line. */
export function writeOutput(command: string, path: string, text: string | Uint8Array): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new UsageError(`${command}: cannot write "${path}": ${ioReason(error)}`);
  }
}

/** Why a file operation failed, in words; permission errors are rethrown for the dispatcher. */
function ioReason(error: unknown): string {
  if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
    throw error;
  }
  const code = (error as { code?: string }).code;
  if (error instanceof Deno.errors.NotFound || code === "ENOENT") {
    return "file not found; check the path";
  }
  if (error instanceof Deno.errors.IsADirectory || code === "EISDIR") {
    return "it is a folder; name a file";
  }
  if (code === "ENOTDIR") return "a parent is not a folder; check the path";
  return (error as Error).message;
}
