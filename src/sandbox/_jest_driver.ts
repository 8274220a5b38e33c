/**
 * The program a `jest` run starts: one `node` process under Node's permission model (no child
 * processes, no worker threads, no native addons, no inspector, file reads and writes only where
 * granted) that runs jest 29 in band from the task's npm environment, with a configuration patchgym
 * writes (the repository's own jest configuration is never read). The driver:
 *
 * - reads the run's HMAC key and settings from stdin before any jest or user code, and keeps the key
 *   in its own closure (no module exports it, no file holds it);
 * - captures the functions it writes records with, and the call-site methods it reads stacks with,
 *   before anything else runs;
 * - is also the run's jest test environment (`testEnvironment` names this file; `require` of the
 *   main module returns it from the cache, closure included): a `jest-environment-node` whose
 *   `handleTestEvent` sees every registration jest-circus makes. A registration (`test`, `it`,
 *   `describe`, `.each`, ...) whose caller, past jest-circus's and jest-each's own frames, is not the
 *   pristine test file jest is running is refused (a signed `identity` line; the test is never
 *   wrapped, so it never passes). Each accepted test's function is replaced in circus's state by a
 *   wrapper that notes whether the test's own function returned (or its promise resolved, or its
 *   done callback was called without an error); when circus says the test is done, one signed line
 *   says `passed` only if it did and circus saw no error (a failed `expect`, a hook, a timeout),
 *   `failed` otherwise. One terminal line per test: removing lines from the record file (its path
 *   is writable by the run) can leave a test unfinished, never passed;
 * - locks `expect` once jest-circus installed it (the global cannot be reassigned, `expect`, its
 *   matchers and equality testers are frozen) and freezes the test realm's built-in constructors and
 *   prototypes, so code under test cannot turn a failing assertion into a no-op; the matchers that
 *   compare with jest's equals refuse a received value that answers as an asymmetric matcher and
 *   compare a copy read once of one holding a Proxy or a getter (`settled`);
 * - gives the test realm `__patchgym_observe`, which a graded test file's separated checks
 *   (`reward/separate.ts`: `expect(x).toBe(1)` becomes `__patchgym_observe("site", x)`) call with
 *   the value under check: it is serialized with intrinsics captured first (the test realm's plain
 *   arrays and objects too) and written as a signed `observe` line of the running test, when the
 *   call comes directly from that test's own file. The expected value stays in patchgym.
 *
 * Records are signed with the node_test preload's own HMAC over typed arrays and written with its
 * own JSON writer: Node's objects in the test realm (`Buffer`, `require("crypto")`, the arrays Node
 * returns) lead to this realm's prototypes and to node:crypto's internals.
 *
 * jest's own output (its default reporter) is shown and never read. Records use the node_test
 * format (`_node_preload.ts` `readNodeRecords`); test ids are `file::describe > test`.
 */

import { DENO_OBSERVE, SERIALIZE } from "./_deno_preload.ts";
import { HMAC, STACK_HOOK } from "./_node_preload.ts";

/** What the driver reads from stdin (one JSON document). */
export interface JestRunInput {
  /** HMAC-SHA256 key, hex. */
  key: string;
  /** Absolute path of the record file (made by the driver). */
  records: string;
  /** The repository (jest's root folder), its real path. */
  dir: string;
  /** Absolute paths tests may be registered from. */
  trusted: string[];
  /** Test files to run, absolute. */
  files: string[];
  /** Full test names to run (`describe > test`); empty: all. */
  names: string[];
  /** The run's temporary folder (`TMPDIR`), made by the driver. */
  tmp: string;
}

/** The stdin document of a run. */
export function jestRunInput(input: JestRunInput): string {
  return JSON.stringify(input);
}

/** The jest major version the runner supports (jest 30 resolves modules with a native addon). */
export const JEST_MAJOR = 29;

/** Exit status of a run whose jest is missing or unsupported (the driver says why on stderr). */
export const JEST_MISSING_STATUS = 86;

/** The driver's source (the same for every run; the run's secrets come on stdin). */
export function jestDriver(): string {
  return DRIVER;
}

const DRIVER = String.raw`"use strict";
const { readFileSync, readSync, openSync, writeSync, mkdirSync, realpathSync } = require("node:fs");
const { createRequire } = require("node:module");
const { dirname } = require("node:path");
const { types: nodeTypes } = require("node:util");

if (require.main !== module) {
  // Loaded again (as the test environment, outside the cache): the main module's export is it.
  module.exports = require.main.exports;
  return;
}

const apply = Reflect.apply;
const defineProperty = Object.defineProperty;
const getOwnPropertyNames = Object.getOwnPropertyNames;
const hasOwn = Object.hasOwn;
const TypeErrorCtor = TypeError;
const freeze = Object.freeze;
const isFrozen = Object.isFrozen;
const captureStackTrace = Error.captureStackTrace;
const isArray = Array.isArray;
const isPromise = nodeTypes.isPromise;
const stringify = JSON.stringify;
const uncurry = (f) => Function.prototype.call.bind(f);
const has = uncurry(Set.prototype.has);
const weakGet = uncurry(WeakMap.prototype.get);
const weakSet = uncurry(WeakMap.prototype.set);
const weakHas = uncurry(WeakMap.prototype.has);
const startsWith = uncurry(String.prototype.startsWith);
const slice = uncurry(String.prototype.slice);
const then = uncurry(Promise.prototype.then);
const arraySome = uncurry(Array.prototype.some);
const arrayJoin = uncurry(Array.prototype.join);
const arrayPush = uncurry(Array.prototype.push);
const arrayPop = uncurry(Array.prototype.pop);
const codeUnit = uncurry(String.prototype.charCodeAt);
const U8 = Uint8Array;
const U32 = Uint32Array;
const ErrorCtor = Error;
const WeakMapCtor = WeakMap;
// Code under test reaches this realm's globals too (Node's own objects come from it, Buffer's
// prototype chain leads to its Array.prototype): what the driver calls later is captured now, and
// records are signed with the node_test preload's own HMAC over typed arrays and written with its
// own JSON writer. With node:crypto, a patched init of its native Hmac handle received the key;
// with JSON.stringify, an Array.prototype.toJSON of this realm turned failed records into passed
// ones before they were signed, and that earned 1.0 on js-jest-csv-escaped-quotes.
${HMAC}
${SERIALIZE}
const input = readInput();
const KEY = keyBytes(input.key);
input.key = null;
const ALLOWED = new Set(input.trusted);
const NAMES = input.names;

${STACK_HOOK}

function rawSites(entry, limit) {
  const holder = {};
  const before = ErrorCtor.stackTraceLimit;
  ours = (_error, sites) => sites;
  try {
    ErrorCtor.stackTraceLimit = limit;
    captureStackTrace(holder, entry);
    return holder.stack;
  } finally {
    ours = null;
    ErrorCtor.stackTraceLimit = before;
  }
}
// The CallSite methods, captured: code under test can reach the prototype through its own
// prepareStackTrace and make getFileName lie.
const probe = rawSites(rawSites, 1)[0];
const CALLSITE = Object.getPrototypeOf(probe);
const getFileName = uncurry(CALLSITE.getFileName);
const isEval = uncurry(CALLSITE.isEval);

const records = openSync(input.records, "wx");
mkdirSync(input.tmp, { recursive: true, mode: 0o700 });

function record(kind, file, name, text) {
  const payload = json(text === undefined ? [kind, file, name] : [kind, file, name, text]);
  const mac = hmac(KEY, payload);
  // A short write would leave a torn line: a missing record fails the test, which is safe.
  writeSync(records, mac + " " + payload + "\n");
}

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

function missing(why) {
  process.stderr.write("patchgym: " + why + "\n");
  process.exit(${"$"}{JEST_MISSING_STATUS});
}

const repoRequire = createRequire(input.dir + "/package.json");
let jestPackage;
try {
  jestPackage = repoRequire.resolve("jest/package.json");
} catch {
  missing("jest is not installed in the repository's node_modules (declare it in package.json's devDependencies and run \"patchgym env build\")");
}
const version = JSON.parse(readFileSync(jestPackage, "utf8")).version;
if (typeof version !== "string" || version.split(".")[0] !== "${"$"}{JEST_MAJOR}") {
  missing("jest " + version + " is installed; the jest runner needs jest ${"$"}{JEST_MAJOR} (jest 30 resolves modules with a native addon, which Node's permission model refuses)");
}
const jestRequire = createRequire(jestPackage);
const coreRequire = createRequire(jestRequire.resolve("@jest/core/package.json"));
const NodeEnvironment = coreRequire(
  createRequire(coreRequire.resolve("jest-runner/package.json")).resolve("jest-environment-node"),
).TestEnvironment;
const circusDir = dirname(realpathSync(coreRequire.resolve("jest-circus/package.json"))) + "/";
const eachDir = dirname(realpathSync(
  createRequire(circusDir + "package.json").resolve("jest-each/package.json"),
)) + "/";

/**
 * The file of the code that called into jest-circus (past circus's and jest-each's own frames and
 * built-in frames between them), or null when it is not the pristine test file testPath.
 */
function registrant(testPath) {
  const sites = rawSites(registrant, 40);
  if (!isArray(sites)) return null;
  let jest = false;
  for (let i = 0; i < sites.length; i++) {
    const file = getFileName(sites[i]);
    if (file === __filename) continue;
    if (typeof file === "string" && (startsWith(file, circusDir) || startsWith(file, eachDir))) {
      jest = true;
      continue;
    }
    // Built-in frames (no file) only between jest's own (jest-each loops with forEach).
    if (file === null || file === undefined) {
      const next = i + 1 < sites.length ? getFileName(sites[i + 1]) : null;
      if (jest && typeof next === "string" && (startsWith(next, circusDir) || startsWith(next, eachDir))) continue;
      return null;
    }
    if (!jest || isEval(sites[i])) return null;
    return file === testPath && has(ALLOWED, file) ? file : null;
  }
  return null;
}

function selected(full) {
  if (NAMES.length === 0) return true;
  return arraySome(NAMES, (n) =>
    n === full || startsWith(full, n + " > ") || startsWith(n, full + " > ")
  );
}

/**
 * The test function circus runs: the test file's own, called through captured functions, noting in
 * outcome whether it returned (its promise resolved, its done callback was called without an
 * error) or threw. Same arity as the original (circus hands a done callback to functions of one
 * parameter or more). Nothing is written here: the one outcome line of a test is written when
 * circus says it is done, so removing lines from the record file can never leave a pass behind.
 */
function observed(fn, outcome, test) {
  function settle(result) {
    if (!isPromise(result)) {
      outcome.state = "passed";
      return result;
    }
    // Promise.prototype.then asks the promise's constructor for a species, which user code could
    // supply; an own "constructor" of undefined makes V8 use the intrinsic Promise instead.
    defineProperty(result, "constructor", { value: undefined, configurable: true });
    return then(result, (value) => {
      outcome.state = "passed";
      return value;
    }, (error) => {
      fail(outcome, error);
      throw error;
    });
  }
  if (fn.length > 0) {
    return function (done) {
      let settled = false;
      outcome.state = "running";
      current = test;
      const finish = (error) => {
        if (!settled && error) fail(outcome, error);
        else if (!settled) outcome.state = "passed";
        settled = true;
        return done(error);
      };
      try {
        return apply(fn, this, [finish]);
      } catch (error) {
        if (!settled) fail(outcome, error);
        settled = true;
        throw error;
      }
    };
  }
  return function () {
    let result;
    outcome.state = "running";
    current = test;
    try {
      result = apply(fn, this, []);
    } catch (error) {
      fail(outcome, error);
      throw error;
    }
    return settle(result);
  };
}

// Observations: a graded test file's separated checks (reward/separate.ts) hand the value under
// check to this function (a global of the test realm), which serializes it with intrinsics
// captured above and writes it, signed, to the record file; the expected value is not in this
// process. Only a call made directly from the running test's own (pristine) file counts.
let current = null;
function observe(site, value, mode) {
  const sites = rawSites(observe, 1);
  const at = isArray(sites) ? sites[0] : undefined;
  const file = at === undefined || isEval(at) ? null : getFileName(at);
  if (current === null || file !== current.file || !has(ALLOWED, file) || typeof site !== "string") {
    throw new ErrorCtor("patchgym: checks are observed only from the tests' own files");
  }
  const seen = mode === 1 && typeof value === "function"
    ? thrown(value)
    : plain(value, 0, { __proto__: null, left: 100000 }, mode === 2);
  record("observe", current.file, current.full, [site, seen]);
}
freeze(observe);

function fail(outcome, error) {
  outcome.state = "failed";
  if (outcome.text === undefined) outcome.text = failure(error);
}

const INTRINSICS = [
  "Object", "Function", "Array", "String", "Number", "Boolean", "Symbol", "BigInt", "Map", "Set",
  "WeakMap", "WeakSet", "RegExp", "Date", "Promise", "Reflect", "JSON", "Math",
];

/**
 * Freeze a prototype, each data property turned into an accessor whose setter defines an own
 * property on the object assigned to: ordinary code that assigns obj.toString = ... keeps
 * working (a frozen prototype's data property would make that assignment fail).
 */
function lockPrototype(proto) {
  for (const key of ownKeys(proto)) {
    const desc = getOwnPropertyDescriptor(proto, key);
    if (!desc || !("value" in desc) || !desc.configurable) continue;
    const value = desc.value;
    defineProperty(proto, key, {
      __proto__: null,
      get() {
        return value;
      },
      set(next) {
        if (this === proto) throw new TypeErrorCtor("patchgym: built-in prototypes are frozen in jest tests");
        defineProperty(this, key, {
          __proto__: null, value: next, writable: true, enumerable: true, configurable: true,
        });
      },
      enumerable: desc.enumerable,
      configurable: false,
    });
  }
  freeze(proto);
}

// Node's own checks of internal slots: a value of these kinds is compared by jest as it is (its
// contents are not own properties a getter or a Proxy could serve).
const isProxy = nodeTypes.isProxy;
const SLOTTED = [
  nodeTypes.isDate, nodeTypes.isRegExp, nodeTypes.isMap, nodeTypes.isSet, nodeTypes.isWeakMap,
  nodeTypes.isWeakSet, nodeTypes.isNativeError, nodeTypes.isBoxedPrimitive, nodeTypes.isAnyArrayBuffer,
  nodeTypes.isArrayBufferView, nodeTypes.isPromise, nodeTypes.isGeneratorObject,
  nodeTypes.isMapIterator, nodeTypes.isSetIterator,
];
const setPrototypeOf = Object.setPrototypeOf;
const mapGet = uncurry(Map.prototype.get);
const mapSet = uncurry(Map.prototype.set);
const MapCtor = Map;
const SetCtor = Set;
const setValues = uncurry(Set.prototype.values);
const mapEntries = uncurry(Map.prototype.entries);
const setIteratorNext = uncurry(getPrototypeOf(new Set().values()).next);
const mapIteratorNext = uncurry(getPrototypeOf(new Map().entries()).next);

/** A Set's values or a Map's entries ([key, value]), read with captured iterators. */
function contents(value) {
  const out = [];
  const map = nodeTypes.isMap(value);
  const iterator = map ? mapEntries(value) : setValues(value);
  for (let step = map ? mapIteratorNext(iterator) : setIteratorNext(iterator); !step.done;) {
    defineProperty(out, out.length, {
      __proto__: null, value: step.value, writable: true, enumerable: true, configurable: true,
    });
    step = map ? mapIteratorNext(iterator) : setIteratorNext(iterator);
  }
  return out;
}
const setAdd = uncurry(Set.prototype.add);

function refuse(why) {
  throw new ErrorCtor("patchgym: jest cannot compare a value under check " + why);
}

/**
 * Whether the value is plain data all the way down (no Proxy, no own getter, nothing with an
 * asymmetricMatch, which refuses): then jest compares it as it is, identity and private fields
 * included. Otherwise settled() copies it.
 */
function stable(value, seen, budget) {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return true;
  if (has(seen, value)) return true;
  setAdd(seen, value);
  if (--budget.left < 0) refuse("this large (over 1,000,000 objects)");
  if (isProxy(value)) return false;
  for (let proto = getPrototypeOf(value); proto !== null; proto = getPrototypeOf(proto)) {
    if (isProxy(proto)) refuse("whose prototype is a Proxy");
    if (getOwnPropertyDescriptor(proto, "asymmetricMatch") !== undefined) refuse("that has an asymmetricMatch");
  }
  if (getOwnPropertyDescriptor(value, "asymmetricMatch") !== undefined) refuse("that has an asymmetricMatch");
  let ok = true;
  // jest's equals compares a Set's or a Map's contents one by one, as it does an array's.
  if (!isProxy(value) && (nodeTypes.isSet(value) || nodeTypes.isMap(value))) {
    const items = contents(value);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (nodeTypes.isMap(value) ? !stable(item[0], seen, budget) || !stable(item[1], seen, budget) : !stable(item, seen, budget)) ok = false;
    }
  }
  if (typeof value === "function" || arraySome(SLOTTED, (is) => is(value))) return ok;
  const keys = ownKeys(value);
  for (let i = 0; i < keys.length; i++) {
    const desc = getOwnPropertyDescriptor(value, keys[i]);
    if (desc === undefined) continue;
    if (!hasOwn(desc, "value")) ok = false;
    else if (!stable(desc.value, seen, budget)) ok = false;
  }
  return ok;
}

/**
 * The value a matcher compares, read once by patchgym: arrays and ordinary objects are copied with
 * their prototype, each own property a data property (a getter runs once, a Proxy's traps answer
 * once), so what jest compares is what was read, whatever the caller. A value that answers as an
 * asymmetric matcher (an asymmetricMatch anywhere on its prototype chain: jest's equals lets such a
 * received value decide equality) or whose prototype is a Proxy is refused. An asymmetricMatch
 * returning true on parse()'s rows, or a Proxy serving one, passed js-jest-csv-escaped-quotes'
 * round-trip test with the bug in place.
 */
function settled(value, seen, budget) {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return value;
  const known = mapGet(seen, value);
  if (known !== undefined) return known;
  if (--budget.left < 0) refuse("this large (over 1,000,000 objects)");
  // Read once: a Proxy's getPrototypeOf trap may answer differently each time.
  const first = getPrototypeOf(value);
  for (let proto = first; proto !== null; proto = getPrototypeOf(proto)) {
    if (isProxy(proto)) refuse("whose prototype is a Proxy");
    if (getOwnPropertyDescriptor(proto, "asymmetricMatch") !== undefined) refuse("that has an asymmetricMatch");
  }
  const proxy = isProxy(value);
  if (!proxy && (nodeTypes.isSet(value) || nodeTypes.isMap(value))) {
    if (getOwnPropertyDescriptor(value, "asymmetricMatch") !== undefined) refuse("that has an asymmetricMatch");
    const map = nodeTypes.isMap(value);
    const copy = map ? new MapCtor() : new SetCtor();
    setPrototypeOf(copy, first);
    mapSet(seen, value, copy);
    const items = contents(value);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (map) mapSet(copy, settled(item[0], seen, budget), settled(item[1], seen, budget));
      else setAdd(copy, settled(item, seen, budget));
    }
    return copy;
  }
  if (!proxy && (typeof value === "function" || arraySome(SLOTTED, (is) => is(value)))) {
    if (getOwnPropertyDescriptor(value, "asymmetricMatch") !== undefined) refuse("that has an asymmetricMatch");
    mapSet(seen, value, value);
    return value;
  }
  const array = isArray(value);
  const copy = array ? [] : {};
  setPrototypeOf(copy, first);
  mapSet(seen, value, copy);
  const keys = ownKeys(value);
  let length = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const desc = getOwnPropertyDescriptor(value, key);
    if (desc === undefined) continue;
    if (key === "asymmetricMatch") refuse("that has an asymmetricMatch");
    const item = hasOwn(desc, "value") ? desc.value : typeof desc.get === "function" ? apply(desc.get, value, []) : undefined;
    if (array && key === "length") {
      length = item;
      continue;
    }
    defineProperty(copy, key, {
      __proto__: null,
      value: settled(item, seen, budget),
      writable: true,
      enumerable: !!desc.enumerable,
      configurable: true,
    });
  }
  if (array && typeof length === "number") defineProperty(copy, "length", { __proto__: null, value: length });
  return copy;
}

// The matchers that compare the received value with jest's equals.
const SETTLED_MATCHERS = [
  "toEqual", "toStrictEqual", "toMatchObject", "toContainEqual", "toHaveProperty", "toContain", "toHaveLength",
];
const INTERNAL_MATCHER = Symbol.for("$$jest-internal-matcher");

/** Matchers of equals that compare what settled() read of the received value. */
function settleMatchers(matchers) {
  for (let n = 0; n < SETTLED_MATCHERS.length; n++) {
    const name = SETTLED_MATCHERS[n];
    const matcher = matchers[name];
    if (typeof matcher !== "function") continue;
    const wrapped = function (received) {
      // No spread, no assignment: code under test reaches this realm's Array.prototype.
      const args = [];
      defineProperty(args, 0, {
        __proto__: null,
        value: stable(received, new SetCtor(), { __proto__: null, left: 1000000 })
          ? received
          : settled(received, new MapCtor(), { __proto__: null, left: 1000000 }),
        writable: true, enumerable: true, configurable: true,
      });
      for (let i = 1; i < arguments.length; i++) {
        defineProperty(args, i, {
          __proto__: null, value: arguments[i], writable: true, enumerable: true, configurable: true,
        });
      }
      return apply(matcher, this, args);
    };
    defineProperty(wrapped, "name", { __proto__: null, value: name });
    if (matcher[INTERNAL_MATCHER] === true) {
      defineProperty(wrapped, INTERNAL_MATCHER, { __proto__: null, value: true });
    }
    matchers[name] = wrapped;
  }
}

/** Freeze what decides an assertion in the test realm: expect and the built-ins it compares with. */
function lockRealm(global) {
  const expect = global.expect;
  if (typeof expect === "function") {
    const matchers = global[Symbol.for("$$jest-matchers-object")];
    if (matchers !== null && typeof matchers === "object") {
      settleMatchers(matchers.matchers);
      freeze(matchers.matchers);
      freeze(matchers.customEqualityTesters);
      defineProperty(global, Symbol.for("$$jest-matchers-object"), {
        value: matchers, writable: false, configurable: false,
      });
    }
    for (const name of getOwnPropertyNames(expect)) {
      const value = expect[name];
      if (typeof value === "function" && !isFrozen(value)) freeze(value);
    }
    freeze(expect);
    defineProperty(global, "expect", { value: expect, writable: false, configurable: false });
  }
  for (const name of INTRINSICS) {
    const value = global[name];
    if (value === null || (typeof value !== "function" && typeof value !== "object")) continue;
    if (value.prototype) lockPrototype(value.prototype);
    freeze(value);
    defineProperty(global, name, { value, writable: false, configurable: false });
  }
}

class PatchgymEnvironment extends NodeEnvironment {
  #file;
  #suites = [];
  #started = false;
  #tests = new WeakMapCtor();
  constructor(config, context) {
    super(config, context);
    this.#file = context.testPath;
    // The test realm's own plain arrays and objects (no code of the test's has run yet), and the
    // function its separated checks call.
    const global = this.global;
    arrayPush(ARRAY_PROTOTYPES, global.Array.prototype);
    arrayPush(OBJECT_PROTOTYPES, global.Object.prototype);
    defineProperty(global, ${JSON.stringify(DENO_OBSERVE)}, {
      value: observe, writable: false, configurable: false, enumerable: false,
    });
  }
  handleTestEvent(event, state) {
    const name = event.name;
    if (name === "setup") lockRealm(this.global);
    else if (name === "run_start") this.#started = true;
    else if (name === "start_describe_definition") {
      const ok = !this.#started && registrant(this.#file) !== null;
      if (!ok) record("identity", this.#file, StringCtor(event.blockName));
      const parent = this.#suites.length > 0 ? this.#suites[this.#suites.length - 1] : null;
      arrayPush(this.#suites, {
        __proto__: null,
        ok: ok && (parent === null || parent.ok),
        full: parent === null
          ? StringCtor(event.blockName)
          : parent.full + " > " + StringCtor(event.blockName),
      });
    } else if (name === "finish_describe_definition") arrayPop(this.#suites);
    else if (name === "add_test") this.#addTest(event, state);
    else if (name === "test_done") {
      // The test's one outcome: passed only when its own function returned and circus saw no
      // error (a failed expect, a hook, a timeout, a missing expect.assertions).
      current = null;
      const test = event.test;
      const own = weakGet(this.#tests, test);
      if (own === undefined || own.outcome === null) return;
      const errors = isArray(test.errors) ? test.errors : [];
      if (own.outcome.state === "passed" && errors.length === 0) {
        record("passed", this.#file, own.full);
      } else {
        const first = errors.length > 0 ? errors[0] : undefined;
        const text = own.outcome.text ??
          (first === undefined ? "the test's own function did not run to its end" : failure(isArray(first) ? first[0] : first));
        record("failed", this.#file, own.full, text);
      }
    } else if (name === "test_skip" || name === "test_todo") {
      const own = weakGet(this.#tests, event.test);
      if (own !== undefined) record("skipped", this.#file, own.full);
    }
  }
  #addTest(event, state) {
    const parent = this.#suites.length > 0 ? this.#suites[this.#suites.length - 1] : null;
    const name = StringCtor(event.testName);
    const full = parent === null ? name : parent.full + " > " + name;
    const block = state.currentDescribeBlock;
    const children = block && isArray(block.children) ? block.children : [];
    const test = children.length > 0 ? children[children.length - 1] : null;
    const ok = !this.#started && (parent === null || parent.ok) &&
      registrant(this.#file) !== null && test !== null && test.type === "test" &&
      test.fn === event.fn && !weakHas(this.#tests, test) && !event.failing;
    if (!ok) {
      record("identity", this.#file, full);
      return;
    }
    const own = { __proto__: null, full, outcome: null };
    weakSet(this.#tests, test, own);
    if (!selected(full)) {
      test.mode = "skip";
      return;
    }
    if (test.mode === "skip" || test.mode === "todo" || typeof event.fn !== "function") {
      record("skipped", this.#file, full);
      return;
    }
    record("registered", this.#file, full);
    own.outcome = { __proto__: null, state: "pending", text: undefined };
    test.fn = observed(event.fn, own.outcome, { __proto__: null, file: this.#file, full });
  }
}
module.exports = PatchgymEnvironment;

const config = {
  rootDir: input.dir,
  testEnvironment: __filename,
  testRegex: [".*"],
  transform: {},
  haste: { forceNodeFilesystemAPI: true, enableSymlinks: false },
  watchman: false,
  cache: false,
  maxWorkers: 1,
  injectGlobals: true,
  reporters: ["default"],
};
const { runCLI } = jestRequire("jest");
runCLI({
  _: input.files,
  $0: "jest",
  config: stringify(config),
  runInBand: true,
  runTestsByPath: true,
  watchman: false,
  cache: false,
  ci: true,
  color: false,
}, [input.dir]).then((result) => {
  process.exitCode = result.results.success ? 0 : 1;
}, (error) => {
  process.stderr.write("patchgym: jest failed to run: " + failure(error) + "\n");
  process.exitCode = 1;
});
`.replaceAll("${JEST_MISSING_STATUS}", String(JEST_MISSING_STATUS)).replaceAll(
  "${JEST_MAJOR}",
  String(JEST_MAJOR),
);
