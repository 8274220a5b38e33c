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
import { DENO_OBSERVE, LOCKDOWN, SERIALIZE } from "./_deno_preload.ts";

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

/**
 * V8 asks `Error.prepareStackTrace` for structured call sites; code under test may set its own, but
 * while patchgym reads a call site (its `ours`, set around the read), patchgym's is the one V8 sees;
 * `Error` itself cannot be replaced. Used by PRELOAD and the jest driver, after `defineProperty`.
 */
export const STACK_HOOK = String
  .raw`// V8 asks Error.prepareStackTrace for structured call sites; user code may set its own, but
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
`;

/**
 * The preload's HMAC-SHA256, its own code over typed arrays, which runs no code a user could
 * replace (no method is called on an array holding key material): the key is handed to no library
 * function, whose internals code under test can reach (a patched `init` of node:crypto's native
 * Hmac handle received the key), and lives in an array of its own (a Buffer from a hex string is
 * cut from a pool that any `Buffer.from(...).buffer` shows). `readInput` reads stdin (the key,
 * and the tests' sources) into arrays of its own too, and clears them. Used by PRELOAD and the jest
 * driver, which capture `U8`, `U32`, `codeUnit` and `readSync` first.
 */
export const HMAC = String.raw`
function readInput() {
  const chunks = [];
  let total = 0;
  for (;;) {
    const chunk = new Uint8Array(65536);
    let got = 0;
    try {
      got = readSync(0, chunk, 0, 65536, null);
    } catch (error) {
      if (error && error.code === "EAGAIN") continue;
      throw error;
    }
    if (got === 0) break;
    chunks.push([chunk, got]);
    total += got;
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const [chunk, got] of chunks) {
    all.set(chunk.subarray(0, got), at);
    at += got;
    chunk.fill(0);
  }
  const text = new TextDecoder().decode(all);
  all.fill(0);
  return JSON.parse(text);
}

const K256 = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const HEX = "0123456789abcdef";

/** SHA-256 of the first n bytes of bytes (32 bytes). */
function sha256(bytes, n) {
  const total = ((n + 72) >>> 6) << 6;
  const m = new U8(total);
  for (let i = 0; i < n; i++) m[i] = bytes[i];
  m[n] = 0x80;
  const hi = (n / 536870912) | 0;
  const lo = (n << 3) >>> 0;
  m[total - 8] = hi >>> 24;
  m[total - 7] = hi >>> 16;
  m[total - 6] = hi >>> 8;
  m[total - 5] = hi;
  m[total - 4] = lo >>> 24;
  m[total - 3] = lo >>> 16;
  m[total - 2] = lo >>> 8;
  m[total - 1] = lo;
  const h = new U32(8);
  h[0] = 0x6a09e667; h[1] = 0xbb67ae85; h[2] = 0x3c6ef372; h[3] = 0xa54ff53a;
  h[4] = 0x510e527f; h[5] = 0x9b05688c; h[6] = 0x1f83d9ab; h[7] = 0x5be0cd19;
  const w = new U32(64);
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) {
      const j = off + 4 * i;
      w[i] = (m[j] << 24) | (m[j + 1] << 16) | (m[j + 2] << 8) | m[j + 3];
    }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15];
      const y = w[i - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (k + S1 + ((e & f) ^ (~e & g)) + K256[i] + w[i]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
  }
  const out = new U8(32);
  for (let i = 0; i < 8; i++) {
    out[4 * i] = h[i] >>> 24;
    out[4 * i + 1] = h[i] >>> 16;
    out[4 * i + 2] = h[i] >>> 8;
    out[4 * i + 3] = h[i];
  }
  return out;
}

/** The key's bytes (from hex) in an array of their own. */
function keyBytes(hex) {
  const key = new U8(64);
  for (let i = 0; i < 32; i++) {
    const high = codeUnit(hex, 2 * i);
    const low = codeUnit(hex, 2 * i + 1);
    key[i] = ((high <= 57 ? high - 48 : high - 87) << 4) | (low <= 57 ? low - 48 : low - 87);
  }
  return key;
}

/** HMAC-SHA256 of text (as UTF-8) under key (64 bytes, zero-padded), in hex. */
function hmac(key, text) {
  const size = text.length;
  const inner = new U8(64 + 3 * size);
  for (let i = 0; i < 64; i++) inner[i] = key[i] ^ 0x36;
  let n = 64;
  for (let i = 0; i < size; i++) {
    let c = codeUnit(text, i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < size) {
      const next = codeUnit(text, i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
      }
    }
    if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
    if (c < 0x80) inner[n++] = c;
    else if (c < 0x800) {
      inner[n++] = 0xc0 | (c >>> 6);
      inner[n++] = 0x80 | (c & 63);
    } else if (c < 0x10000) {
      inner[n++] = 0xe0 | (c >>> 12);
      inner[n++] = 0x80 | ((c >>> 6) & 63);
      inner[n++] = 0x80 | (c & 63);
    } else {
      inner[n++] = 0xf0 | (c >>> 18);
      inner[n++] = 0x80 | ((c >>> 12) & 63);
      inner[n++] = 0x80 | ((c >>> 6) & 63);
      inner[n++] = 0x80 | (c & 63);
    }
  }
  const innerHash = sha256(inner, n);
  const outer = new U8(96);
  for (let i = 0; i < 64; i++) outer[i] = key[i] ^ 0x5c;
  for (let i = 0; i < 32; i++) outer[64 + i] = innerHash[i];
  const mac = sha256(outer, 96);
  let hex = "";
  for (let i = 0; i < 32; i++) hex += HEX[mac[i] >>> 4] + HEX[mac[i] & 15];
  return hex;
}
`;

const PRELOAD = String.raw`
import real from "node:test";
import { mkdirSync, openSync, readSync, writeSync as liveWriteSync } from "node:fs";
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

// An import of a builtin is a live binding, which syncBuiltinESMExports() rebinds to whatever code
// under test put on the CommonJS module: every function used after user code starts is copied now.
const writeSync = liveWriteSync;
const input = readInput();
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
const has = Function.prototype.call.bind(Set.prototype.has);
const startsWith = Function.prototype.call.bind(String.prototype.startsWith);
const slice = Function.prototype.call.bind(String.prototype.slice);
const then = Function.prototype.call.bind(Promise.prototype.then);
const arraySome = Function.prototype.call.bind(Array.prototype.some);
const arrayJoin = Function.prototype.call.bind(Array.prototype.join);
const arrayPush = Function.prototype.call.bind(Array.prototype.push);
const arrayPop = Function.prototype.call.bind(Array.prototype.pop);
const arraySlice = Function.prototype.call.bind(Array.prototype.slice);
const codeUnit = Function.prototype.call.bind(String.prototype.charCodeAt);
const U8 = Uint8Array;
const U32 = Uint32Array;
const decode = decodeURIComponent;
const now = performance.now.bind(performance);
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;
const realTest = real.test;
const realDescribe = real.describe;
const realIt = real.it;

const records = openSync(input.records, "wx");
mkdirSync(input.tmp, { recursive: true, mode: 0o700 });

${HMAC}
const KEY = keyBytes(input.key);
input.key = null;

function record(kind, file, name, text) {
  const payload = json(text === undefined ? [kind, file, name] : [kind, file, name, text]);
  const mac = hmac(KEY, payload);
  // A short write would leave a torn line: a missing record fails the test, which is safe.
  writeSync(records, mac + " " + payload + "\n");
}

${STACK_HOOK}

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

${LOCKDOWN}
lockdown();

// The wrapper reads the API once, now, before any code under test could change what it reads.
await import(input.wrapper);
`;
