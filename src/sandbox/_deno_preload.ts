/**
 * The module `deno test` loads before any test or code under test (`--preload`). deno test writes
 * its JUnit report from the runtime, so the report itself cannot be forged; what code under test
 * could still do is change what the tests mean. This module takes that away:
 *
 * - `node:assert` and `Deno.test` are frozen, so assertions cannot become no-ops and tests cannot
 *   be re-registered with empty bodies.
 * - A test's identity (the file JUnit names it under) is decided here, from the V8 call site of
 *   the registering call, read with stack-trace functions captured before user code runs. A test
 *   registered from anything but a pristine test file, from `eval`, or carrying its own location
 *   (deno reads `Symbol.for("Deno.test.location")` from the function) is refused: the call throws,
 *   the file fails to load and its tests are missing, and the preload writes
 *   {@linkcode IDENTITY_MARKER} with a per-run nonce to stderr, which code under test cannot know
 *   (the preload file lies outside what its permissions can read), so the grade can say why.
 * - Deno's internal ops (`Deno[Deno.internal].core`) are removed from user reach.
 * - The test function runs through `Reflect.apply` captured here, not `Function.prototype.call`.
 */

/** Written to stderr, followed by the run's nonce, when a registration is refused. */
export const IDENTITY_MARKER = "patchgym-identity:";

/**
 * The preload module's source: `allowed` are the absolute paths tests may be registered from;
 * `nonce` marks the refusal notice on stderr.
 */
export function denoPreload(allowed: string[], nonce: string): string {
  return `${FREEZE_ASSERT}\nconst ALLOWED = new Set(${JSON.stringify(allowed)});\nconst NOTICE = ${
    JSON.stringify(`\n${IDENTITY_MARKER}${nonce}\n`)
  };\n${GUARD_TEST}`;
}

const FREEZE_ASSERT = `
import strict from "node:assert/strict";
import loose from "node:assert";
for (const assert of [strict, loose]) {
  for (const key of Object.keys(assert)) {
    if (typeof assert[key] === "function") Object.freeze(assert[key]);
  }
  Object.freeze(assert);
}
`;

const GUARD_TEST = String.raw`
const internal = Deno[Deno.internal];
if (internal) delete internal.core;
const LOCATION = Symbol.for("Deno.test.location");
const realTest = Deno.test;
const apply = Reflect.apply;
const defineProperty = Object.defineProperty;
const freeze = Object.freeze;
const captureStackTrace = Error.captureStackTrace;
const isArray = Array.isArray;
const has = Function.prototype.call.bind(Set.prototype.has);
const startsWith = Function.prototype.call.bind(String.prototype.startsWith);
const slice = Function.prototype.call.bind(String.prototype.slice);
const decode = decodeURIComponent;
const encode = encodeURI;
const ErrorCtor = Error;
const stderr = Deno.stderr;
const writeErr = Function.prototype.call.bind(Deno.stderr.writeSync);
const notice = new TextEncoder().encode(NOTICE);

// V8 asks Error.prepareStackTrace for structured call sites; user code may set its own, but
// while patchgym reads a call site, patchgym's is the one V8 sees.
let ours = null;
let theirs = Error.prepareStackTrace;
defineProperty(Error, "prepareStackTrace", {
  configurable: false,
  enumerable: false,
  get() {
    return ours ?? theirs;
  },
  set(value) {
    theirs = value;
  },
});

function callSite(entry) {
  const holder = {};
  const limit = ErrorCtor.stackTraceLimit;
  ours = (_error, sites) => sites;
  try {
    ErrorCtor.stackTraceLimit = 4;
    captureStackTrace(holder, entry);
    const sites = holder.stack;
    return isArray(sites) ? sites[0] : undefined;
  } finally {
    ours = null;
    ErrorCtor.stackTraceLimit = limit;
  }
}

function location(entry) {
  const site = callSite(entry);
  if (!site || site.isEval()) return null;
  const url = site.getFileName();
  if (typeof url !== "string") return null;
  const path = startsWith(url, "file://") ? decode(slice(url, 7)) : url;
  if (!has(ALLOWED, path)) return null;
  // V8 names a module by its path; deno test reads a location as a file URL.
  const file = startsWith(url, "file://") ? url : "file://" + encode(path);
  return file + ":" + site.getLineNumber() + ":" + site.getColumnNumber();
}

const KEYS = ["ignore", "only", "sanitizeOps", "sanitizeResources", "sanitizeExit", "permissions"];

function definition(a, b, c) {
  if (typeof a === "string") {
    return typeof b === "function" ? { name: a, fn: b } : { ...b, name: a, fn: c };
  }
  if (typeof a === "function") return { name: a.name, fn: a };
  return typeof b === "function" ? { ...a, name: a?.name ?? b.name, fn: b } : { ...a };
}

function register(entry, overrides, a, b, c) {
  const where = location(entry);
  if (where === null) {
    writeErr(stderr, notice);
    throw new ErrorCtor("Deno.test must be called from a test file of the task, not from code under test");
  }
  const given = definition(a, b, c);
  const fn = given.fn;
  if (typeof fn !== "function") return apply(realTest, undefined, [a, b, c]);
  const desc = { name: given.name, fn: function (t) {
    return apply(fn, this, [t]);
  } };
  for (const key of KEYS) if (given[key] !== undefined) desc[key] = given[key];
  for (const key of KEYS) if (overrides[key] !== undefined) desc[key] = overrides[key];
  defineProperty(desc.fn, LOCATION, { value: where });
  return apply(realTest, undefined, [desc]);
}

function test(a, b, c) {
  return register(test, {}, a, b, c);
}
function ignore(a, b, c) {
  return register(ignore, { ignore: true }, a, b, c);
}
function only(a, b, c) {
  return register(only, { only: true }, a, b, c);
}
defineProperty(test, "ignore", { value: freeze(ignore) });
defineProperty(test, "only", { value: freeze(only) });
freeze(test);
defineProperty(Deno, "test", { value: test, writable: false, configurable: false });
defineProperty(globalThis, "Deno", { writable: false, configurable: false });
`;
