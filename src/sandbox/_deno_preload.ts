/**
 * The module `deno test` loads before any test or code under test (`--preload`). deno test writes
 * its JUnit report from the runtime, so the report itself cannot be forged; what code under test
 * could still do is change what the tests mean, or steer the runner's own JavaScript (it resolves
 * promises with objects whose `then` is looked up through `Object.prototype`, reads options it never
 * set through the prototype chain). This module takes that away:
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
 * - A registration's options are read from own properties only, into objects without a prototype,
 *   so nothing on `Object.prototype` sees or changes what is registered.
 * - Every test function's own outcome (it returned, or its promise settled, without throwing) is
 *   written to a **record file**, one line per run, that the preload opens before any user code and
 *   then revokes write permission for: no code in the process can open it again, and the handle
 *   is held only here. A JUnit pass counts only with a passing record ({@linkcode readDenoRecords}),
 *   so whatever makes the runner report a pass, the test function itself must have passed.
 * - Deno's internal ops (`Deno[Deno.internal].core`) are removed from user reach.
 * - The test function runs through `Reflect.apply` captured here, not `Function.prototype.call`.
 */

/** The global function a separated deno test calls with each value under check. */
export const DENO_OBSERVE = "__patchgym_observe";

/** Written to stderr, followed by the run's nonce, when a registration is refused. */
export const IDENTITY_MARKER = "patchgym-identity:";

/** Record files the preload makes in its records folder are named with this prefix. */
export const RECORD_PREFIX = "records-";

/**
 * The preload module's source: `allowed` are the absolute paths tests may be registered from;
 * `nonce` marks the refusal notice on stderr and every record line; `records` is a folder the run
 * may write only until the preload has made its record file there (it revokes the grant).
 */
export function denoPreload(allowed: string[], nonce: string, records: string): string {
  return `${FREEZE_ASSERT}\nconst ALLOWED = new Set(${JSON.stringify(allowed)});\nconst NOTICE = ${
    JSON.stringify(`\n${IDENTITY_MARKER}${nonce}\n`)
  };\nconst NONCE = ${JSON.stringify(nonce)};\nconst RECORDS = ${
    JSON.stringify(records)
  };\nconst RECORD_PREFIX = ${JSON.stringify(RECORD_PREFIX)};\nconst OBSERVE = ${
    JSON.stringify(DENO_OBSERVE)
  };\n${GUARD_TEST}`;
}

/** What the record files say: each test function's outcome and the values its checks observed. */
export interface DenoRecords {
  /** By file path (absolute, as the preload saw it) and test name as deno reports it. */
  outcomes: Map<string, Map<string, "passed" | "failed">>;
  /** By file path and test name: observations in the order they were made. */
  observed: Map<string, Map<string, { site: string; value: unknown }[]>>;
}

/**
 * The records in `text` (every record file's lines): a test's worst outcome over every line
 * carrying `nonce`, `passed` or `failed`, and its observations (`observe` lines). Lines without the
 * nonce are ignored.
 */
export function readDenoRecords(text: string, nonce: string): DenoRecords {
  const outcomes = new Map<string, Map<string, "passed" | "failed">>();
  const observed = new Map<string, Map<string, { site: string; value: unknown }[]>>();
  for (const line of text.split("\n")) {
    const match = /^(\S+) (passed|failed|observe) (.*)$/.exec(line);
    if (match === null || match[1] !== nonce) continue;
    let where: unknown;
    try {
      where = JSON.parse(`[${match[3]}]`);
    } catch {
      continue;
    }
    if (!Array.isArray(where)) continue;
    const [file, name] = where;
    if (typeof file !== "string" || typeof name !== "string") continue;
    if (match[2] === "observe") {
      if (where.length !== 4 || typeof where[2] !== "string") continue;
      const byName = observed.get(file) ?? new Map<string, { site: string; value: unknown }[]>();
      observed.set(file, byName);
      const list = byName.get(denoName(name)) ?? [];
      byName.set(denoName(name), list);
      list.push({ site: where[2], value: where[3] });
      continue;
    }
    if (where.length !== 2) continue;
    const byName = outcomes.get(file) ?? new Map<string, "passed" | "failed">();
    outcomes.set(file, byName);
    const reported = denoName(name);
    if (byName.get(reported) !== "failed") byName.set(reported, match[2] as "passed" | "failed");
  }
  return { outcomes, observed };
}

/** A test name as deno reports it: C0 and C1 control characters escaped, as deno's `escapeName`. */
function denoName(name: string): string {
  // deno-lint-ignore no-control-regex
  return name.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => {
    const named = CONTROL_NAMES[c];
    return named ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
  });
}

const CONTROL_NAMES: Record<string, string> = {
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\v": "\\v",
  "\f": "\\f",
  "\r": "\\r",
};

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

/**
 * The JavaScript intrinsics frozen before any code under test: the test files' own code (a
 * `for...of` in a helper, a `.map`, a template literal) runs through `Array.prototype`,
 * `%ArrayIteratorPrototype%.next` and the like, so code under test that replaced one could make a
 * failing test's checks never run (`Array.prototype[Symbol.iterator]` yielding nothing to the
 * tests' loops earned four `fail_to_pass` passes on js-semver-caret-zero, and one on
 * ts-iso-duration-minutes). Shared by the deno and node_test preloads, each calling `lockdown()`
 * last. Every object reachable
 * from the global constructors, namespaces and hidden intrinsics (through own properties and
 * prototypes) is frozen, and the globals naming them are made read-only. Like Node's
 * `--frozen-intrinsics` (which also locks `Error.prepareStackTrace`, which the preload's call
 * sites need), a writable data property of a frozen object becomes an accessor whose setter, on
 * another object, defines that object's own property: `this.name = ...` in an Error subclass or
 * `obj.toString = ...` still work (the "override mistake"). `constructor` properties stay data
 * properties (util.inspect reads them), so `Sub.prototype.constructor = Sub` on a prototype made
 * from an intrinsic one throws. `Error.stackTraceLimit` stays writable (V8 reads it as a data
 * property). Node's own globals (`Buffer`, `URL`,
 * `TextEncoder`, `process`) are not covered.
 */
export const LOCKDOWN = String.raw`
function lockdown() {
  const seen = new Set();
  const queue = [];
  const add = (value) => {
    if ((typeof value === "object" && value !== null) || typeof value === "function") {
      if (!seen.has(value)) {
        seen.add(value);
        queue.push(value);
      }
    }
  };
  const names = [
    "Object", "Function", "Array", "Number", "parseFloat", "parseInt", "Boolean", "String",
    "Symbol", "Date", "Promise", "RegExp", "Error", "AggregateError", "EvalError", "RangeError",
    "ReferenceError", "SyntaxError", "TypeError", "URIError", "JSON", "Math", "Intl",
    "ArrayBuffer", "SharedArrayBuffer", "Atomics", "Uint8Array", "Int8Array", "Uint16Array",
    "Int16Array", "Uint32Array", "Int32Array", "Float32Array", "Float64Array",
    "Uint8ClampedArray", "BigUint64Array", "BigInt64Array", "DataView", "Map", "BigInt", "Set",
    "WeakMap", "WeakSet", "Proxy", "Reflect", "FinalizationRegistry", "WeakRef", "decodeURI",
    "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "unescape", "eval",
    "isFinite", "isNaN", "Iterator", "structuredClone", "WebAssembly",
  ];
  for (const name of names) {
    const desc = Object.getOwnPropertyDescriptor(globalThis, name);
    if (desc === undefined) continue;
    if ("value" in desc) {
      add(desc.value);
      Object.defineProperty(globalThis, name, { writable: false, configurable: false });
    }
  }
  const hidden = [
    [][Symbol.iterator](),
    ""[Symbol.iterator](),
    new Map()[Symbol.iterator](),
    new Set()[Symbol.iterator](),
    /a/[Symbol.matchAll](""),
    function* () {},
    (function* () {})(),
    async function () {},
    async function* () {},
    (async function* () {})(),
    Object.getOwnPropertyDescriptor(Function.prototype, "caller")?.get,
  ];
  for (const value of hidden) add(value);
  const tamed = [];
  for (let i = 0; i < queue.length; i++) {
    const object = queue[i];
    add(Object.getPrototypeOf(object));
    for (const key of Reflect.ownKeys(object)) {
      const desc = Object.getOwnPropertyDescriptor(object, key);
      if ("value" in desc) add(desc.value);
      else {
        add(desc.get);
        add(desc.set);
      }
      // A constructor stays a data property: util.inspect names a value by it (an Error whose
      // prototype's constructor is an accessor prints as "{}").
      if ((object === Error && key === "stackTraceLimit") || key === "constructor") continue;
      if ("value" in desc && desc.writable && desc.configurable) tamed.push([object, key, desc]);
    }
  }
  for (const [object, key, desc] of tamed) {
    const value = desc.value;
    Object.defineProperty(object, key, {
      get() {
        return value;
      },
      set(next) {
        if (this === object) throw new TypeError("Cannot assign to read only property '" + String(key) + "' of a frozen intrinsic");
        Object.defineProperty(this, key, { value: next, writable: true, enumerable: true, configurable: true });
      },
      enumerable: desc.enumerable,
      configurable: false,
    });
  }
  for (const object of queue) {
    if (object === Error) {
      for (const key of Reflect.ownKeys(object)) {
        if (key === "stackTraceLimit") continue;
        const desc = Object.getOwnPropertyDescriptor(object, key);
        Object.defineProperty(object, key, "value" in desc ? { writable: false, configurable: false } : { configurable: false });
      }
      Object.preventExtensions(object);
    } else Object.freeze(object);
  }
}
`;

/**
 * How a preload serializes an observed value (`plain`) and what a function threw (`thrown`), with
 * intrinsics captured before any user code; it uses `apply`, `hasOwn` and `isArray`, which the
 * embedding preload captures first. Shared by the deno and node_test preloads.
 */
export const SERIALIZE = String.raw`const objectIs = Object.is;
const StringCtor = String;
const getPrototypeOf = Object.getPrototypeOf;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const ownKeys = Reflect.ownKeys;
// The prototypes of plain arrays and objects: this realm's (the jest driver adds its test realm's
// before any test runs).
const ARRAY_PROTOTYPES = [Array.prototype];
const OBJECT_PROTOTYPES = [Object.prototype];
const objectTag = Function.prototype.call.bind(Object.prototype.toString);
const numberText = Function.prototype.call.bind(Number.prototype.toString);
const bigintText = Function.prototype.call.bind(BigInt.prototype.toString);
const push = Function.prototype.call.bind(Array.prototype.push);
const INDEX = /^(?:0|[1-9]\d*)$/;
const regexTest = Function.prototype.call.bind(RegExp.prototype.test);

/** A property's value as deepStrictEqual reads it: a getter runs, as it would there. */
function read(object, desc) {
  return hasOwn(desc, "value") ? desc.value : typeof desc.get === "function" ? apply(desc.get, object, []) : undefined;
}

function among(list, value) {
  for (let i = 0; i < list.length; i++) if (list[i] === value) return true;
  return false;
}

/**
 * The value as plain data. loose (jest's toEqual, which compares objects by their keys whatever
 * their class) reads any array, holes as undefined, and any object whose tag is [object Object].
 */
function plain(value, depth, budget, loose) {
  if (--budget.left < 0 || depth > 64) return ["x", "too large"];
  const kind = typeof value;
  if (kind === "number") return ["n", objectIs(value, -0) ? "-0" : numberText(value)];
  // No test file holds a literal this long: past it, the value only fills the record file.
  if (kind === "string") return value.length <= 1000000 ? ["s", value] : ["x", "long string"];
  if (kind === "boolean") return ["b", value];
  if (kind === "bigint") return ["g", bigintText(value)];
  if (kind === "undefined") return ["u"];
  if (value === null) return ["z"];
  if (kind !== "object") return ["x", kind];
  const proto = getPrototypeOf(value);
  const keys = ownKeys(value);
  if (isArray(value) && (loose === true || among(ARRAY_PROTOTYPES, proto))) {
    const items = [];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key === "length") continue;
      const desc = getOwnPropertyDescriptor(value, key);
      if (typeof key !== "string" || !regexTest(INDEX, key)) {
        if (desc.enumerable) return ["x", "array with properties"];
        continue;
      }
      while (loose === true && key !== "" + items.length) {
        if (--budget.left < 0) return ["x", "too large"];
        push(items, ["u"]);
      }
      if (key !== "" + items.length) return ["x", "sparse array"];
      push(items, plain(read(value, desc), depth + 1, budget, loose));
    }
    return ["a", items];
  }
  if (
    !among(OBJECT_PROTOTYPES, proto) &&
    !(loose === true && !isArray(value) && objectTag(value) === "[object Object]")
  ) {
    return ["x", "object"];
  }
  const entries = [];
  for (let i = 0; i < keys.length; i++) {
    const desc = getOwnPropertyDescriptor(value, keys[i]);
    if (!desc.enumerable) continue;
    if (typeof keys[i] !== "string") return ["x", "object with symbol keys"];
    push(entries, [keys[i], plain(read(value, desc), depth + 1, budget, loose)]);
  }
  return ["o", entries];
}

/**
 * The JSON text of a record the preload built (arrays, strings, numbers, booleans), read with
 * intrinsics: JSON.stringify asks an object for its toJSON, which code under test could define on
 * Array.prototype and so rewrite a record before it is written (and signed). On a primitive
 * JSON.stringify asks nothing.
 */
const jsonPrimitive = JSON.stringify;
function json(value) {
  const kind = typeof value;
  if (kind === "string" || kind === "number" || kind === "boolean") return jsonPrimitive(value);
  if (!isArray(value)) return "null";
  let text = "[";
  for (let i = 0; i < value.length; i++) text += (i === 0 ? "" : ",") + json(value[i]);
  return text + "]";
}

/** What a function threw: its constructors' names (own properties only) and its string form. */
function thrown(fn) {
  try {
    apply(fn, undefined, []);
  } catch (error) {
    const names = [];
    let text = "";
    try {
      text = "" + StringCtor(error);
    } catch {
      text = "";
    }
    let proto = error !== null && (typeof error === "object" || typeof error === "function")
      ? getPrototypeOf(error)
      : null;
    for (let depth = 0; proto !== null && depth < 32; depth++) {
      const ctor = getOwnPropertyDescriptor(proto, "constructor");
      const name = ctor && typeof ctor.value === "function"
        ? getOwnPropertyDescriptor(ctor.value, "name")
        : undefined;
      if (name && typeof name.value === "string") push(names, name.value);
      proto = getPrototypeOf(proto);
    }
    return ["t", names, text];
  }
  return ["n"];
}

`;

const GUARD_TEST = String.raw`
import { types as nodeTypes } from "node:util";
const internal = Deno[Deno.internal];
if (internal) delete internal.core;
const LOCATION = Symbol.for("Deno.test.location");
const realTest = Deno.test;
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
const decode = decodeURIComponent;
const encode = encodeURI;
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;
const stderr = Deno.stderr;
const writeErr = Function.prototype.call.bind(Deno.stderr.writeSync);
const encoder = new TextEncoder();
const encodeText = Function.prototype.call.bind(TextEncoder.prototype.encode);
const notice = encodeText(encoder, NOTICE);

// The record file: deno runs each test file in an isolate of its own, with its own permissions,
// and this module first in each. It makes a fresh file in the records folder before any user code,
// then revokes write access to the folder: no code of this isolate (nor a worker it starts) may
// open anything there again, and the handle lives only in this module.
const records = Deno.openSync(RECORDS + "/" + RECORD_PREFIX + crypto.randomUUID(), {
  write: true,
  createNew: true,
});
const writeRecords = Function.prototype.call.bind(Deno.FsFile.prototype.writeSync);
Deno.permissions.revokeSync({ name: "write", path: RECORDS });
if (Deno.permissions.querySync({ name: "write", path: RECORDS }).state === "granted") {
  throw new ErrorCtor("patchgym could not make its test records private");
}

function record(outcome, file, name) {
  const line = encodeText(encoder, NONCE + " " + outcome + " " + stringify(file) + "," + stringify(name) + "\n");
  // A short write would leave a torn line: a missing record fails the test, which is safe.
  writeRecords(records, line);
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

/** The call site's pristine file path and its location string for deno, or null. */
function location(entry) {
  const site = callSite(entry);
  if (!site || site.isEval()) return null;
  const url = site.getFileName();
  if (typeof url !== "string") return null;
  const path = startsWith(url, "file://") ? decode(slice(url, 7)) : url;
  if (!has(ALLOWED, path)) return null;
  // V8 names a module by its path; deno test reads a location as a file URL.
  const file = startsWith(url, "file://") ? url : "file://" + encode(path);
  return { path, where: file + ":" + site.getLineNumber() + ":" + site.getColumnNumber() };
}

// Read by index: a for-of loop would ask Array.prototype for its iterator.
const KEYS = freeze(["ignore", "only", "sanitizeOps", "sanitizeResources", "sanitizeExit", "permissions"]);

/** An own property of a test file's options object; inherited ones are never read. */
function field(object, key) {
  return object !== null && typeof object === "object" && hasOwn(object, key)
    ? object[key]
    : undefined;
}

/** A function's own name; an inherited one (a getter user code put up) is never read. */
function nameOf(fn) {
  return typeof fn === "function" && hasOwn(fn, "name") ? fn.name : undefined;
}

/** What a registration asks for, in an object without a prototype. */
function definition(a, b, c) {
  const given = { __proto__: null, name: undefined, fn: undefined, options: undefined };
  if (typeof a === "string") {
    given.name = a;
    if (typeof b === "function") given.fn = b;
    else {
      given.options = b;
      given.fn = c;
    }
  } else if (typeof a === "function") {
    given.fn = a;
    given.name = nameOf(a);
  } else {
    given.options = a;
    given.fn = typeof b === "function" ? b : field(a, "fn");
    given.name = field(a, "name") ?? nameOf(given.fn);
  }
  return given;
}

/**
 * The test function deno runs: the test file's own, through captured functions, writing its
 * outcome to the record file when it returns, throws, or its promise settles.
 */
function observed(fn, file, name) {
  return function (t) {
    let result;
    current = { __proto__: null, file, name };
    try {
      result = apply(fn, this, [t]);
    } catch (error) {
      record("failed", file, name);
      current = null;
      throw error;
    }
    if (!isPromise(result)) {
      record("passed", file, name);
      current = null;
      return result;
    }
    // Promise.prototype.then asks the promise's constructor for a species, which user code could
    // supply; an own "constructor" of undefined makes V8 use the intrinsic Promise instead.
    try {
      defineProperty(result, "constructor", { value: undefined, configurable: true });
      then(result, () => {
        record("passed", file, name);
        current = null;
      }, () => {
        record("failed", file, name);
        current = null;
      });
    } catch {
      // A promise that cannot be watched safely (made non-extensible) counts as failed.
      record("failed", file, name);
      current = null;
    }
    deleteProperty(result, "constructor");
    return result;
  };
}

// Observations: a graded test file's separated checks (reward/separate.ts) hand the value under
// check to this function, which serializes it with the intrinsics captured above and writes it to
// the record file; the expected value is not in this process. Only a call made directly from a
// pristine test file while one of its tests runs counts.
let current = null;
${SERIALIZE}function observe(site, value, mode) {
  const where = location(observe);
  if (where === null || current === null || typeof site !== "string") {
    throw new ErrorCtor("patchgym: checks are observed only from the tests' own files");
  }
  const seen = json(
    mode === 1 && typeof value === "function"
      ? thrown(value)
      : plain(value, 0, { __proto__: null, left: 100000 }),
  );
  writeRecords(records, encodeText(encoder, NONCE + " observe " + stringify(current.file) + "," +
    stringify(current.name) + "," + stringify(site) + "," + seen + "\n"));
}
defineProperty(globalThis, OBSERVE, { value: freeze(observe), writable: false, configurable: false, enumerable: false });

function register(entry, overrides, a, b, c) {
  const where = location(entry);
  if (where === null) {
    writeErr(stderr, notice);
    throw new ErrorCtor("Deno.test must be called from a test file of the task, not from code under test");
  }
  const given = definition(a, b, c);
  const fn = given.fn;
  const name = given.name;
  if (typeof fn !== "function") throw new TypeErrorCtor("Deno.test needs a test function");
  if (typeof name !== "string") throw new TypeErrorCtor("Deno.test needs a test name");
  const desc = { __proto__: null, name, fn: observed(fn, where.path, name) };
  for (let i = 0; i < KEYS.length; i++) {
    const value = overrides[KEYS[i]] ?? field(given.options, KEYS[i]);
    if (value !== undefined) desc[KEYS[i]] = value;
  }
  defineProperty(desc.fn, LOCATION, { value: where.where });
  return apply(realTest, undefined, [desc]);
}

function test(a, b, c) {
  return register(test, { __proto__: null }, a, b, c);
}
function ignore(a, b, c) {
  return register(ignore, { __proto__: null, ignore: true }, a, b, c);
}
function only(a, b, c) {
  return register(only, { __proto__: null, only: true }, a, b, c);
}
defineProperty(test, "ignore", { value: freeze(ignore) });
defineProperty(test, "only", { value: freeze(only) });
freeze(test);
defineProperty(Deno, "test", { value: test, writable: false, configurable: false });
defineProperty(globalThis, "Deno", { writable: false, configurable: false });
${LOCKDOWN}
lockdown();
`;
