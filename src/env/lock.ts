/**
 * The lock patchgym writes for a repository's dependency environment (`env.lock`, JSON): the
 * exact packages installed, the interpreter they were installed for, where the repository's own
 * code lives and the test options the run needs. Its hash names the environment in the cache, so
 * two tasks with the same lock share one install.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { formatIssue } from "../zod_issues.ts";
import { patchgymCommand } from "../hint.ts";

/** Name and version of the lock format. */
export const LOCK_FORMAT = "patchgym-env-lock";
/** Current lock version. */
export const LOCK_VERSION = 1;
/** The lock's file name in a task folder. */
export const LOCK_FILE = "env.lock";

const common = {
  format: z.literal(LOCK_FORMAT),
  version: z.literal(LOCK_VERSION),
  source_roots: z.array(z.string()).describe(
    "Folders of the repository put on the path (besides its root), e.g. src",
  ),
  pytest_args: z.array(z.string()).describe("Options every pytest run gets (plugins, addopts)"),
  notes: z.array(z.string()).describe("What the build left out or changed, for people"),
  made_at: z.string().describe("When the lock was written (ISO 8601)"),
};

/** Schema of a Python `env.lock`: pip pins for one interpreter version. */
const PythonLockSchema = z.strictObject({
  ...common,
  ecosystem: z.literal("python").describe("Which installer builds the environment"),
  python: z.string().regex(/^\d+\.\d+$/).describe(
    "Interpreter version (major.minor) installed for",
  ),
  packages: z.array(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*==\S+$/))
    .describe("Exact pins, name==version, sorted"),
});

/**
 * Schema of an npm `env.lock`: the repository's own `package-lock.json` decides what `npm ci`
 * installs; the lock records its hash and the Node major version (packages are listed for people).
 */
const NpmLockSchema = z.strictObject({
  ...common,
  ecosystem: z.literal("npm").describe("Which installer builds the environment"),
  node: z.string().regex(/^\d+$/).describe("Node major version installed for"),
  package_lock: z.string().regex(/^[0-9a-f]{64}$/)
    .describe("SHA-256 of the repository's package-lock.json"),
  packages: z.array(z.string().min(1)).describe("Installed packages, name@version, sorted"),
});

/**
 * Schema of a Deno `env.lock`: the repository's `deno.lock` and the `npm:` imports of its
 * `deno.json` decide what `deno install` caches; the lock records their hashes and Deno's version.
 */
const DenoLockSchema = z.strictObject({
  ...common,
  ecosystem: z.literal("deno").describe("Which installer builds the environment"),
  deno: z.string().regex(/^\d+\.\d+\.\d+/).describe("Deno version installed with"),
  deno_lock: z.string().regex(/^[0-9a-f]{64}$/).describe("SHA-256 of the repository's deno.lock"),
  imports: z.string().regex(/^[0-9a-f]{64}$/)
    .describe("SHA-256 of the imports and scopes of the repository's deno.json"),
  packages: z.array(z.string().min(1)).describe("Cached npm packages, name@version, sorted"),
});

/** Schema of `env.lock`. */
export const EnvLockSchema = z.discriminatedUnion("ecosystem", [
  PythonLockSchema,
  NpmLockSchema,
  DenoLockSchema,
]);

/** A parsed `env.lock`. */
export type EnvLock = z.infer<typeof EnvLockSchema>;
/** A Python `env.lock`. */
export type PythonLock = z.infer<typeof PythonLockSchema>;
/** An npm `env.lock`. */
export type NpmLock = z.infer<typeof NpmLockSchema>;
/** A Deno `env.lock`. */
export type DenoLock = z.infer<typeof DenoLockSchema>;

/** Parse a lock's text; throws an Error naming every problem. */
export function parseLock(text: string, label: string): EnvLock {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `${label}: not valid JSON: ${(error as Error).message}; run "${
        patchgymCommand("env build")
      }" again`,
    );
  }
  const parsed = EnvLockSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `${label}: ${parsed.error.issues.map((i) => formatIssue(i, raw)).join("; ")}; run "${
        patchgymCommand("env build")
      }" again`,
    );
  }
  return parsed.data;
}

/** The lock as written to disk (stable key order, a final newline). */
export function formatLock(lock: EnvLock): string {
  return JSON.stringify(lock, null, 2) + "\n";
}

/**
 * The cache key of a lock: a hash over what decides the installed files (ecosystem, interpreter,
 * pins, package-lock.json or deno.lock), not over notes, dates or per-run options.
 */
export function lockHash(
  lock:
    | Pick<PythonLock, "ecosystem" | "python" | "packages">
    | Pick<NpmLock, "ecosystem" | "node" | "package_lock">
    | Pick<DenoLock, "ecosystem" | "deno" | "deno_lock" | "imports">,
): string {
  const key = lock.ecosystem === "npm"
    ? JSON.stringify([lock.ecosystem, lock.node, lock.package_lock])
    : lock.ecosystem === "deno"
    ? JSON.stringify([lock.ecosystem, lock.deno, lock.deno_lock, lock.imports])
    : JSON.stringify([lock.ecosystem, lock.python, [...lock.packages].sort()]);
  return createHash("sha256").update(key).digest("hex").slice(0, 20);
}
