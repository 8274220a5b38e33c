/**
 * Which language and test runner a repository's history is mined with, read from its own
 * configuration at a commit: `deno.json` (or `deno.jsonc`) is a Deno project (`deno test`);
 * `package.json` whose `scripts.test` runs `node --test` or jest, or that depends on jest, is a
 * Node project; anything else is Python (pytest), also when a `package.json` that names no test
 * runner sits beside `pyproject.toml`, `setup.py` or `setup.cfg`. A Node project that tests with a
 * runner patchgym cannot run (vitest, mocha, ...) is named with the reason, so `mine` drops its
 * commits with that reason instead of failing on them.
 */
import { JEST_MAJOR } from "../sandbox/test_runner.ts";
import type { LANGUAGES, RunnerName } from "../task/spec.ts";

/** A repository's language and test runner, and how mining tells its code from its tests. */
export interface Stack {
  language: (typeof LANGUAGES)[number];
  runner: RunnerName;
  /** What the runner was detected from, for people. */
  from: string;
  /** Whether a path is source code a fix may change (outside the tests). */
  isCode: (path: string) => boolean;
  /** Whether a path is a test module the runner runs. */
  isTestModule: (path: string) => boolean;
  /** What the repository declares that its test runs cannot have (said when they fail). */
  limits?: string;
}

/** A detected stack, or why the repository cannot be mined. */
export type Detection = { ok: true; stack: Stack } | { ok: false; reason: string };

/** The configuration files detection reads, at the repository's root. */
export const STACK_FILES = [
  "deno.json",
  "deno.jsonc",
  "package.json",
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
] as const;

/** What a Node repository's tests need to be mined. */
const USE = `use node --test or jest ${JEST_MAJOR}`;

/** JavaScript runners patchgym does not run, with why (the report quotes it). */
const UNSUPPORTED: { name: string; why: string }[] = [
  {
    name: "vitest",
    why:
      `vitest cannot run under Node's permission model in the jail (it starts worker processes and loads a native addon); ${USE}`,
  },
  {
    name: "mocha",
    why:
      `patchgym has no mocha reporter (it grades only the results its own node --test and jest reporters sign); ${USE}`,
  },
  { name: "ava", why: `patchgym has no ava reporter; ${USE}` },
  { name: "jasmine", why: `patchgym has no jasmine reporter; ${USE}` },
  { name: "tap", why: `patchgym has no tap reporter; ${USE}` },
  { name: "tape", why: `patchgym has no tape reporter; ${USE}` },
  { name: "qunit", why: `patchgym has no qunit reporter; ${USE}` },
  { name: "uvu", why: `patchgym has no uvu reporter; ${USE}` },
  {
    name: "karma",
    why: `karma runs tests in a browser, which the jail does not have; ${USE}`,
  },
  {
    name: "playwright",
    why: "playwright runs tests in a browser, which the jail does not have",
  },
  { name: "cypress", why: "cypress runs tests in a browser, which the jail does not have" },
];

/** Python: pytest collects `test_*.py` and `*_test.py`. */
const PYTHON: Omit<Stack, "from"> = {
  language: "python",
  runner: "pytest",
  isCode: (path) => path.endsWith(".py"),
  isTestModule: (path) => /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(path),
};

/** Deno: `deno test` finds `{*_,*.,}test.{ts,tsx,mts,js,mjs,jsx}`. */
const DENO: Omit<Stack, "from"> = {
  language: "typescript",
  runner: "deno_test",
  isCode: (path) => /\.(?:[cm]?[jt]s|[jt]sx)$/.test(path),
  isTestModule: (path) => /(^|\/|[._])test\.(?:ts|tsx|mts|js|mjs|jsx)$/.test(path),
};

/**
 * node --test's own patterns (`*.test.js`, `*-test.js`, `*_test.js`, `test-*.js`, `test.js` and
 * scripts under a `test/` folder), without the helpers and fixtures such a folder holds.
 */
const NODE_TEST: Omit<Stack, "from"> = {
  language: "javascript",
  runner: "node_test",
  isCode: (path) => /\.(?:[cm]?js|jsx)$/.test(path),
  isTestModule: (path) =>
    /\.[cm]?js$/.test(path) && !/(^|\/)(fixtures?|__fixtures__|helpers?|data)\//.test(path) &&
    !/(^|\/)_[^/]*$/.test(path) &&
    (/(^|\/)(test\.|test-)[^/]*$/.test(path) || /[._-]test\.[cm]?js$/.test(path) ||
      /(^|\/)test\//.test(path)),
};

/**
 * jest's own patterns (`*.test.js`, `*.spec.js`, scripts under `__tests__/`), for the scripts
 * patchgym's jest runs without a transform (CommonJS `.js` and `.cjs`).
 */
const JEST: Omit<Stack, "from"> = {
  language: "javascript",
  runner: "jest",
  isCode: NODE_TEST.isCode,
  isTestModule: (path) =>
    /\.c?js$/.test(path) && !/(^|\/)(fixtures?|__fixtures__|helpers?)\//.test(path) &&
    (/\.(test|spec)\.c?js$/.test(path) || /(^|\/)__tests__\//.test(path)),
};

/**
 * The stack of a repository whose root configuration files (any of {@linkcode STACK_FILES}, by
 * name, with their text) are `files`.
 */
export function detectStack(files: Record<string, string>): Detection {
  for (const name of ["deno.json", "deno.jsonc"]) {
    const text = files[name];
    if (text === undefined) continue;
    const limits = uncachedImports(text);
    return { ok: true, stack: { ...DENO, from: name, ...(limits ? { limits } : {}) } };
  }
  const text = files["package.json"];
  if (text === undefined) return { ok: true, stack: { ...PYTHON, from: "no package.json" } };
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `package.json is not JSON: ${(error as Error).message}` };
  }
  const scripts = isObject(manifest.scripts) ? manifest.scripts : {};
  // `test` and the scripts it may delegate to (`test:unit`, `test-node`).
  const script = Object.entries(scripts).filter(([name, value]) =>
    /^test(\b|$)/.test(name) && typeof value === "string"
  ).map(([, value]) => value as string).join(" && ");
  const dependencies: Record<string, unknown> = {
    ...(isObject(manifest.dependencies) ? manifest.dependencies : {}),
    ...(isObject(manifest.devDependencies) ? manifest.devDependencies : {}),
  };
  const from = typeof scripts.test === "string"
    ? `package.json scripts.test "${scripts.test}"`
    : "package.json";
  // The test scripts decide; without a runner named in them, one among the dependencies does.
  if (/\bnode\b[^&|;]*\s--test\b/.test(script)) return { ok: true, stack: { ...NODE_TEST, from } };
  const named = (name: string) =>
    new RegExp(`(^|[\\s/&|;"'(])${name}(\\s|$|[&|;"')])`).test(script);
  for (const u of UNSUPPORTED) {
    if (named(u.name)) return unsupported(u, from);
  }
  if (named("jest")) return jestStack(dependencies.jest, from);
  for (const u of UNSUPPORTED) {
    if (u.name in dependencies) return unsupported(u, "package.json dependencies");
  }
  if ("jest" in dependencies) return jestStack(dependencies.jest, "package.json dependencies");
  // A Python project with a package.json for its tooling (formatters, docs).
  const python = ["pyproject.toml", "setup.py", "setup.cfg"].find((f) => files[f] !== undefined);
  if (python) return { ok: true, stack: { ...PYTHON, from: python } };
  return {
    ok: false,
    reason: script
      ? `unsupported test runner (${from}): patchgym runs node --test and jest ${JEST_MAJOR}; name one of them in scripts.test`
      : `no test runner: package.json has no scripts.test; ${USE}`,
  };
}

function unsupported(runner: { name: string; why: string }, from: string): Detection {
  return { ok: false, reason: `unsupported test runner ${runner.name} (${from}): ${runner.why}` };
}

/** jest as the runner, when the declared version is one patchgym runs. */
function jestStack(declared: unknown, from: string): Detection {
  const major = typeof declared === "string" ? /(\d+)/.exec(declared)?.[1] : undefined;
  if (major !== undefined && Number(major) !== JEST_MAJOR) {
    return {
      ok: false,
      reason:
        `unsupported test runner jest ${declared} (${from}): patchgym runs jest ${JEST_MAJOR} (jest 30 resolves modules with a native addon, which Node's permission model in the jail refuses)`,
    };
  }
  return { ok: true, stack: { ...JEST, from } };
}

/** Whether a path is a test file or test data of `stack` (not code the fix may change). */
export function isTestPath(path: string, stack: Pick<Stack, "isTestModule"> = PYTHON): boolean {
  return /(^|\/)(tests?|testing|__tests__)\//.test(path) || stack.isTestModule(path) ||
    /(^|\/)conftest\.py$/.test(path);
}

/**
 * The imports of a Deno config that no environment caches (`jsr:`, `https:`), as a sentence, or
 * null: only `npm:` packages get a Deno environment, and the jail has no network.
 */
function uncachedImports(text: string): string | null {
  // Read as text: a deno.jsonc has comments, and a mapping's shape is all that matters here.
  const names = [...text.matchAll(/"([^"\\]+)"\s*:\s*"(?:jsr:|https?:)/g)].map((m) => `"${m[1]}"`);
  if (names.length === 0) return null;
  return `its deno config imports ${
    names.slice(0, 5).join(", ")
  } from jsr: or https:, which no environment caches (only npm: imports get a Deno environment, and the jail has no network)`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
