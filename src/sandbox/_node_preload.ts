/**
 * The modules a `node_test` run loads before any test or code under test. The run is one `node`
 * process under Node's permission model (no child processes, no inspector, no native addons, no
 * `process.binding`, file reads and writes only where granted), started with `--import` of the
 * preload, which:
 *
 * - reads the run's HMAC key and settings from stdin before any user code, and keeps the key in its
 *   own closure (no module exports it, no file holds it);
 * - opens the **record file** and writes to it through functions captured before user code: every
 *   test the tests' own files register (`registered` or `skipped`) and every test function's own
 *   outcome (`passed` when it returned, or its promise settled, without throwing; `failed`
 *   otherwise), one line each, signed with the key. Node's own reporter output is only shown, never
 *   read: a test counts as passed only with a signed `passed` line, which code under test cannot
 *   write without the key;
 * - makes `node:test` (and its alias `test`) resolve, for every importer, to a wrapper module whose
 *   `test`/`it`/`describe`/`suite` (and `.skip`/`.todo`/`.only`) register through the preload: a
 *   test's identity (its file) is decided from the V8 call site of the registering call, read with
 *   stack-trace functions captured first, and a registration from anything but a pristine test file
 *   is refused (the refusal writes a signed `identity` line);
 * - serves the tests' own script files from memory through its load hook (their source arrives on
 *   stdin): the run has no read grant for them, so code under test cannot read expected values;
 * - freezes `node:assert` and `node:assert/strict`, so assertions cannot become no-ops;
 * - takes `module.register` (and `registerHooks`) away once its own hooks are in: a load hook of
 *   the code under test could serve any source under a later test file's name.
 *
 * Test ids are `file::name`, nested suites and subtests (`t.test`) joined with `" > "` as deno
 * names steps. Only ES module test files are supported: `require("node:test")` gets Node's own
 * module, whose registrations write no records (those tests never pass).
 */
import { createHmac } from "node:crypto";
import { DENO_OBSERVE, SERIALIZE } from "./_deno_preload.ts";

/** The files a run needs: the preload, the resolve hooks and the `node:test` wrapper. */
export interface NodeLibrary {
  "preload.mjs": string;
  "hooks.mjs": string;
  "wrapper.mjs": string;
  "driver.mjs": string;
}

/** The global (a registered symbol) through which the wrapper module reaches the preload's API. */
const API_SYMBOL = "patchgym.node_test";

/** The library files' sources (the same for every run; the run's secrets come on stdin). */
export function nodeLibrary(): NodeLibrary {
  return {
    "preload.mjs": PRELOAD,
    "hooks.mjs": HOOKS,
    "wrapper.mjs": WRAPPER,
    "driver.mjs": DRIVER,
  };
}

/** What the preload reads from stdin (one JSON document). */
export interface NodeRunInput {
  /** HMAC-SHA256 key, hex. */
  key: string;
  /** Absolute path of the record file (made by the preload). */
  records: string;
  /** Absolute paths tests may be registered from. */
  trusted: string[];
  /** Test files to import, absolute, in order. */
  files: string[];
  /** Full test names to run (`suite > test`); empty: all. */
  names: string[];
  /** URL of the wrapper module the hooks resolve `node:test` to. */
  wrapper: string;
  /** URL of the hooks module. */
  hooks: string;
  /**
   * The tests' own script files by absolute path: their source, which the hooks serve (the run may
   * not read these files, so code under test cannot read them either).
   */
  sources: Record<string, string>;
  /** The run's temporary folder (`TMPDIR`), made by the preload. */
  tmp: string;
}

/** The stdin document of a run. */
export function nodeRunInput(input: NodeRunInput): string {
  return JSON.stringify(input);
}

/** What the record file says, by absolute file and full test name. */
export interface NodeRecords {
  outcomes: Map<string, Map<string, "passed" | "failed" | "skipped" | "registered">>;
  /** What each failed test threw (its first failure), by absolute file and full test name. */
  failures: Map<string, Map<string, string>>;
  /** What each test's separated checks observed, in order, by absolute file and full name. */
  observed: Map<string, Map<string, { site: string; value: unknown }[]>>;
  /** Whether a registration from outside the tests' own files was refused. */
  identity: boolean;
  /** Lines whose signature did not verify. */
  forged: number;
}

/**
 * The records in `text` whose signature verifies with `keyHex`: a test's outcome is the worst of
 * its lines (`failed` over `passed`; a test `registered` that never finished stays `registered`).
 */
export function readNodeRecords(text: string, keyHex: string): NodeRecords {
  const outcomes: NodeRecords["outcomes"] = new Map();
  const failures: NodeRecords["failures"] = new Map();
  const observed: NodeRecords["observed"] = new Map();
  let identity = false;
  let forged = 0;
  const key = Uint8Array.fromHex(keyHex);
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const space = line.indexOf(" ");
    const mac = line.slice(0, space);
    const payload = line.slice(space + 1);
    if (space !== 64 || createHmac("sha256", key).update(payload).digest("hex") !== mac) {
      forged++;
      continue;
    }
    let entry: unknown;
    try {
      entry = JSON.parse(payload);
    } catch {
      forged++;
      continue;
    }
    if (!Array.isArray(entry) || entry.length < 3 || entry.length > 4) continue;
    const [kind, file, name, text] = entry;
    if (typeof file !== "string" || typeof name !== "string") continue;
    if (kind === "identity") {
      identity = true;
      continue;
    }
    if (kind === "observe") {
      if (!Array.isArray(text) || text.length !== 2 || typeof text[0] !== "string") continue;
      const byName = observed.get(file) ?? new Map<string, { site: string; value: unknown }[]>();
      observed.set(file, byName);
      const list = byName.get(name) ?? [];
      byName.set(name, list);
      list.push({ site: text[0], value: text[1] });
      continue;
    }
    if (!KINDS.has(kind)) continue;
    const byName = outcomes.get(file) ?? new Map();
    outcomes.set(file, byName);
    const before = byName.get(name);
    if (before === undefined || RANK[kind as Kind] > RANK[before as Kind]) byName.set(name, kind);
    if (kind === "failed" && typeof text === "string") {
      const texts = failures.get(file) ?? new Map<string, string>();
      failures.set(file, texts);
      if (!texts.has(name)) texts.set(name, text);
    }
  }
  return { outcomes, failures, observed, identity, forged };
}

type Kind = "registered" | "skipped" | "passed" | "failed";
const KINDS: ReadonlySet<unknown> = new Set(["registered", "skipped", "passed", "failed"]);
const RANK: Record<Kind, number> = { registered: 0, skipped: 1, passed: 2, failed: 3 };

/** The resolve hook (runs in Node's loader thread): `node:test` becomes the wrapper. */
const HOOKS = `
import { fileURLToPath } from "node:url";
let wrapper = null;
let sources = new Map();
export async function initialize(data) {
  wrapper = data.wrapper;
  sources = new Map(Object.entries(data.sources));
}
function trusted(url) {
  if (!url.startsWith("file:")) return null;
  try {
    const path = fileURLToPath(url);
    return sources.has(path) ? path : null;
  } catch {
    return null;
  }
}
export async function resolve(specifier, context, next) {
  if ((specifier === "node:test" || specifier === "test") && context.parentURL !== wrapper) {
    return { url: wrapper, shortCircuit: true, format: "module" };
  }
  // The tests' own files are not readable in the run: they resolve here, without a file check.
  let url = null;
  try {
    url = new URL(specifier, context.parentURL).href;
  } catch {
    url = null;
  }
  if (url !== null && trusted(url) !== null) return { url, shortCircuit: true, format: "module" };
  return next(specifier, context);
}
export async function load(url, context, next) {
  const path = trusted(url);
  if (path !== null) return { format: "module", source: sources.get(path), shortCircuit: true };
  return next(url, context);
}
`;

/** The module test files get for `node:test`: the preload's API, re-exported. */
const WRAPPER = `
const api = globalThis[Symbol.for(${JSON.stringify(API_SYMBOL)})];
export const test = api.test;
export const it = api.it;
export const describe = api.describe;
export const suite = api.suite;
export const skip = api.skip;
export const todo = api.todo;
export const only = api.only;
export const before = api.before;
export const after = api.after;
export const beforeEach = api.beforeEach;
export const afterEach = api.afterEach;
export const mock = api.mock;
export const run = api.run;
export default api.test;
`;

/** The entry point: imports each test file in turn (tests start as they are registered). */
const DRIVER = `
const files = globalThis[Symbol.for(${JSON.stringify(API_SYMBOL)})].files;
for (let i = 0; i < files.length; i++) {
  await import(files[i]);
}
`;

const PRELOAD = String.raw`
import real from "node:test";
import { mkdirSync, readFileSync, openSync, writeSync } from "node:fs";
import { createHmac, Hmac } from "node:crypto";
import { createRequire, register as registerHooks, syncBuiltinESMExports } from "node:module";
import { pathToFileURL } from "node:url";
import { types as nodeTypes } from "node:util";
import strict from "node:assert/strict";
import loose from "node:assert";

for (const assert of [strict, loose]) {
  for (const key of Object.keys(assert)) {
    if (typeof assert[key] === "function") Object.freeze(assert[key]);
  }
  Object.freeze(assert);
}

const input = JSON.parse(readFileSync(0, "utf8"));
const KEY = Buffer.from(input.key, "hex");
const ALLOWED = new Set(input.trusted);
const NAMES = input.names;
const apply = Reflect.apply;
const defineProperty = Object.defineProperty;
const deleteProperty = Reflect.deleteProperty;
const freeze = Object.freeze;
const hasOwn = Object.hasOwn;
const captureStackTrace = Error.captureStackTrace;
const isArray = Array.isArray;
const isPromise = nodeTypes.isPromise;
const stringify = JSON.stringify;
const has = Function.prototype.call.bind(Set.prototype.has);
const startsWith = Function.prototype.call.bind(String.prototype.startsWith);
const slice = Function.prototype.call.bind(String.prototype.slice);
const then = Function.prototype.call.bind(Promise.prototype.then);
const arraySome = Function.prototype.call.bind(Array.prototype.some);
const arrayJoin = Function.prototype.call.bind(Array.prototype.join);
const arrayPush = Function.prototype.call.bind(Array.prototype.push);
const arrayPop = Function.prototype.call.bind(Array.prototype.pop);
const arraySlice = Function.prototype.call.bind(Array.prototype.slice);
const update = Function.prototype.call.bind(Hmac.prototype.update);
const digest = Function.prototype.call.bind(Hmac.prototype.digest);
const decode = decodeURIComponent;
const now = performance.now.bind(performance);
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;
const realTest = real.test;
const realDescribe = real.describe;
const realIt = real.it;

const records = openSync(input.records, "wx");
mkdirSync(input.tmp, { recursive: true, mode: 0o700 });

function record(kind, file, name, text) {
  const payload = stringify(text === undefined ? [kind, file, name] : [kind, file, name, text]);
  const mac = digest(update(createHmac("sha256", KEY), payload), "hex");
  // A short write would leave a torn line: a missing record fails the test, which is safe.
  writeSync(records, mac + " " + payload + "\n");
}

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
defineProperty(globalThis, "Error", { writable: false, configurable: false });

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

/** The pristine test file the call to entry came from, or null. */
function location(entry) {
  const site = callSite(entry);
  if (!site || site.isEval()) return null;
  const url = site.getFileName();
  if (typeof url !== "string") return null;
  const path = startsWith(url, "file://") ? decode(slice(url, 7)) : url;
  return has(ALLOWED, path) ? path : null;
}

/** An own property of an options object; inherited ones are never read. */
function field(object, key) {
  return object !== null && typeof object === "object" && hasOwn(object, key)
    ? object[key]
    : undefined;
}

/** Whether the full name is selected (itself, one of its suites, or one of its tests). */
function selected(full) {
  if (NAMES.length === 0) return true;
  return arraySome(NAMES, (n) =>
    n === full || startsWith(full, n + " > ") || startsWith(n, full + " > ")
  );
}

/** What a registration asks for, in an object without a prototype. */
function definition(a, b, c) {
  const given = { __proto__: null, name: undefined, fn: undefined, options: undefined };
  if (typeof a === "function") {
    given.fn = a;
    given.name = hasOwn(a, "name") ? a.name : undefined;
  } else if (a !== null && typeof a === "object") {
    given.options = a;
    given.fn = b;
    given.name = typeof b === "function" && hasOwn(b, "name") ? b.name : undefined;
  } else if (typeof b === "function") {
    given.name = a;
    given.fn = b;
  } else {
    given.name = a;
    given.options = b;
    given.fn = c;
  }
  if (given.name === undefined || given.name === "") given.name = "<anonymous>";
  return given;
}

// The suites being built (describe bodies run as they are registered).
const suites = [];

function fullName(prefix, name) {
  return prefix === "" ? name : prefix + " > " + name;
}

/**
 * The test function node runs: the test file's own, through captured functions, recording its
 * outcome when it returns, throws, or its promise settles. Same arity as the original (node hands
 * a done callback to functions of two parameters).
 */
function observed(fn, file, full, timeout) {
  // A test node times out has failed, even if its function settles afterwards.
  const late = (started) => typeof timeout === "number" && now() - started > timeout;
  function body(t, done) {
    const started = now();
    if (t !== null && typeof t === "object") {
      defineProperty(t, "test", { value: subtest(t, file, full), configurable: true });
    }
    const outer = current;
    current = { __proto__: null, file, full };
    if (fn.length >= 2) {
      let settled = false;
      const finish = (error) => {
        if (!settled && !error && late(started)) record("failed", file, full, "timed out");
        else if (!settled) record(error ? "failed" : "passed", file, full, error ? failure(error) : undefined);
        settled = true;
        current = outer;
        return done(error);
      };
      try {
        apply(fn, this, [t, finish]);
      } catch (error) {
        if (!settled) record("failed", file, full, failure(error));
        settled = true;
        current = outer;
        throw error;
      }
      return undefined;
    }
    let result;
    try {
      result = apply(fn, this, [t]);
    } catch (error) {
      record("failed", file, full, failure(error));
      current = outer;
      throw error;
    }
    if (!isPromise(result)) {
      record("passed", file, full);
      current = outer;
      return result;
    }
    // Promise.prototype.then asks the promise's constructor for a species, which user code could
    // supply; an own "constructor" of undefined makes V8 use the intrinsic Promise instead.
    try {
      defineProperty(result, "constructor", { value: undefined, configurable: true });
      then(result, () => {
        if (late(started)) record("failed", file, full, "timed out");
        else record("passed", file, full);
        current = outer;
      }, (error) => {
        record("failed", file, full, failure(error));
        current = outer;
      });
    } catch {
      record("failed", file, full);
    }
    deleteProperty(result, "constructor");
    return result;
  }
  return fn.length >= 2 ? (t, done) => apply(body, undefined, [t, done]) : (t) => apply(body, undefined, [t]);
}

/** What a failing test threw, as text (bounded); never throws itself. */
function failure(error) {
  let text = "";
  try {
    text = error !== null && typeof error === "object" && typeof error.stack === "string"
      ? error.stack
      : "" + error;
  } catch {
    text = "(the error could not be shown)";
  }
  return typeof text === "string" ? slice(text, 0, 4000) : "";
}

// Observations: a graded test file's separated checks (reward/separate.ts) hand the value under
// check to this function, which serializes it with intrinsics captured above and writes it, signed,
// to the record file; the expected value is not in this process. Only a call made directly from
// the running test's own (pristine) file counts.
let current = null;
${SERIALIZE}
function observe(site, value, mode) {
  const file = location(observe);
  if (file === null || current === null || current.file !== file || typeof site !== "string") {
    throw new ErrorCtor("patchgym: checks are observed only from the tests' own files");
  }
  const seen = mode === 1 && typeof value === "function"
    ? thrown(value)
    : plain(value, 0, { __proto__: null, left: 100000 });
  record("observe", current.file, current.full, [site, seen]);
}
defineProperty(globalThis, ${JSON.stringify(DENO_OBSERVE)}, {
  value: freeze(observe),
  writable: false,
  configurable: false,
  enumerable: false,
});

function refuse() {
  record("identity", "", "");
  throw new ErrorCtor("node:test must be called from a test file of the task, not from code under test");
}

/**
 * Register a test (kind "test") or a suite (kind "suite") under prefix, through realFn (node's
 * own function, called as realFn(name, options, fn)).
 */
function registerAt(kind, file, prefix, realFn, mode, a, b, c) {
  const given = definition(a, b, c);
  if (typeof given.name !== "string") throw new TypeErrorCtor("a test name must be a string");
  const full = fullName(prefix, given.name);
  const options = { __proto__: null };
  const keys = ["timeout", "concurrency"];
  for (let i = 0; i < keys.length; i++) {
    const value = field(given.options, keys[i]);
    if (value !== undefined) options[keys[i]] = value;
  }
  const skip = mode === "skip" || mode === "todo" || field(given.options, "skip") ||
    field(given.options, "todo") || !selected(full) || typeof given.fn !== "function";
  if (skip) {
    record("skipped", file, full);
    options.skip = true;
    return realFn(given.name, options, () => {});
  }
  if (kind === "suite") {
    const fn = given.fn;
    const body = function (s) {
      arrayPush(suites, { __proto__: null, file, full });
      try {
        return apply(fn, this, [s]);
      } finally {
        arrayPop(suites);
      }
    };
    return realFn(given.name, options, body);
  }
  record("registered", file, full);
  return realFn(given.name, options, observed(given.fn, file, full, options.timeout));
}

function topLevel(kind, realFn, mode, entry) {
  const call = (name, options, fn) => apply(realFn, undefined, [name, options, fn]);
  return function (a, b, c) {
    const file = location(entry());
    if (file === null) refuse();
    const inner = suites.length > 0 ? suites[suites.length - 1] : null;
    if (inner !== null && inner.file !== file) refuse();
    return registerAt(kind, file, inner === null ? "" : inner.full, call, mode, a, b, c);
  };
}

/** t.test of a running test: a subtest named under its parent, registered through node's own. */
function subtest(t, file, parent) {
  const own = t.test;
  const call = (name, options, fn) => apply(own, t, [name, options, fn]);
  function sub(a, b, c) {
    if (location(sub) !== file) refuse();
    return registerAt("test", file, parent, call, "", a, b, c);
  }
  return sub;
}

function family(kind, realFn) {
  const make = (mode) => {
    let fn;
    fn = topLevel(kind, realFn, mode, () => fn);
    return fn;
  };
  const main = make("");
  defineProperty(main, "skip", { value: freeze(make("skip")) });
  defineProperty(main, "todo", { value: freeze(make("todo")) });
  defineProperty(main, "only", { value: freeze(make("")) });
  return freeze(main);
}

const test = family("test", realTest);
const it = family("test", realIt);
const describe = family("suite", realDescribe);

const api = freeze({
  __proto__: null,
  test,
  it,
  describe,
  suite: describe,
  skip: test.skip,
  todo: test.todo,
  only: test.only,
  before: real.before,
  after: real.after,
  beforeEach: real.beforeEach,
  afterEach: real.afterEach,
  mock: real.mock,
  run: undefined,
  files: freeze(arraySlice(input.files).map((f) => pathToFileURL(f).href)),
});
defineProperty(globalThis, Symbol.for(${JSON.stringify(API_SYMBOL)}), { value: api });
registerHooks(input.hooks, { data: { wrapper: input.wrapper, sources: input.sources } });
input.sources = null;

// Module hooks are the runner's alone: a load hook of the code under test could serve any source
// under a later test file's (trusted) name. Both the CommonJS and the ES module forms are replaced.
const moduleExports = createRequire(import.meta.url)("node:module");
function reserved() {
  throw new ErrorCtor("patchgym: module hooks are reserved for the test runner");
}
for (const name of ["register", "registerHooks"]) {
  if (typeof moduleExports[name] === "function") {
    defineProperty(moduleExports, name, { value: freeze(reserved), writable: false, configurable: false });
  }
}
syncBuiltinESMExports();

// The wrapper reads the API once, now, before any code under test could change what it reads.
await import(input.wrapper);
`;
