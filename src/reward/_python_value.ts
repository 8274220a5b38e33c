/**
 * Python values outside Python: the expected values of graded assertions, read from the test's
 * source text, and the values tests observed, as the reporter serialized them; compared with
 * Python's own equality (`1 == 1.0 == True == Decimal("1")`, `[1] != (1,)`, sets and dicts by
 * content), so the verdict needs no Python process that runs code under test.
 */

/** A Python value patchgym can compare; `opaque` is any other object (equal to no literal). */
export type PyValue =
  | { t: "num"; n: bigint; d: bigint; bool?: boolean }
  | { t: "float"; v: number }
  | { t: "complex"; re: number; im: number }
  | { t: "str"; v: string }
  | { t: "bytes"; v: string }
  | { t: "none" }
  | { t: "list" | "tuple" | "set"; items: PyValue[] }
  | { t: "dict"; entries: [PyValue, PyValue][] }
  | { t: "date"; days: number }
  | { t: "datetime"; us: bigint; offset: bigint | null }
  | { t: "time"; us: bigint }
  | { t: "timedelta"; us: bigint }
  | { t: "timezone"; us: bigint }
  | { t: "opaque"; type: string };

/** The value of a Python literal (or a value built by a known constructor), or null. */
export function parsePython(text: string): PyValue | null {
  try {
    const parser = new Parser(text);
    const value = parser.expression();
    parser.space();
    return parser.done() ? value : null;
  } catch {
    return null;
  }
}

/**
 * A value the reporter observed: JSON `["i", "12"]`, `["f", "1.5"]`, `["b", true]`,
 * `["c", re, im]`, `["r", num, den]`, `["s", text]`, `["y", hex]`, `["n"]`, `["l"|"t"|"S", items]`,
 * `["d", [[key, value], ...]]`, `["o", type name]`; anything else is opaque.
 */
export function observedPython(json: unknown): PyValue {
  if (!Array.isArray(json)) return { t: "opaque", type: "?" };
  const [tag, a, b] = json;
  try {
    switch (tag) {
      case "i":
        return { t: "num", n: BigInt(a), d: 1n };
      case "b":
        return { t: "num", n: a ? 1n : 0n, d: 1n, bool: true };
      case "f":
        return fromFloat(pythonFloat(a));
      case "c":
        return pythonFloat(b) === 0
          ? fromFloat(pythonFloat(a))
          : { t: "complex", re: pythonFloat(a), im: pythonFloat(b) };
      case "r":
        return ratio(BigInt(a), BigInt(b));
      case "s":
        return { t: "str", v: String(a) };
      case "y":
        return { t: "bytes", v: String(a) };
      case "n":
        return { t: "none" };
      case "l":
      case "t":
      case "S":
        return {
          t: tag === "l" ? "list" : tag === "t" ? "tuple" : "set",
          items: (a as unknown[]).map(observedPython),
        };
      case "d":
        return {
          t: "dict",
          entries: (a as unknown[][]).map(([k, v]) => [observedPython(k), observedPython(v)]),
        };
      case "D":
        return { t: "date", days: daysFrom(Number(a[0]), Number(a[1]), Number(a[2])) };
      case "DT": {
        const [y, mo, d, h, mi, sec, us] = (a as unknown[]).map(Number);
        const offset = b === null ? null : micros(b as unknown[]);
        return { t: "datetime", us: localMicros(y, mo, d, h, mi, sec, us), offset };
      }
      case "T": {
        const [h, mi, sec, us] = (a as unknown[]).map(Number);
        return {
          t: "time",
          us: ((BigInt(h) * 60n + BigInt(mi)) * 60n + BigInt(sec)) * 1000000n + BigInt(us),
        };
      }
      case "TD":
        return { t: "timedelta", us: micros(a as unknown[]) };
      case "TZ":
        return { t: "timezone", us: micros(a as unknown[]) };
      case "o":
        return { t: "opaque", type: String(a) };
    }
  } catch {
    // A malformed value is opaque: it equals nothing.
  }
  return { t: "opaque", type: "?" };
}

/** A float from Python's `repr` (`inf`, `-inf` and `nan` included). */
function pythonFloat(text: unknown): number {
  const t = String(text);
  return t === "inf" ? Infinity : t === "-inf" ? -Infinity : t === "nan" ? NaN : Number(t);
}

/** Python's `a == b` for the values patchgym compares. */
export function pyEqual(a: PyValue, b: PyValue): boolean {
  if (isNumber(a) && isNumber(b)) return numbersEqual(a, b);
  switch (a.t) {
    case "str":
    case "bytes":
      return b.t === a.t && a.v === b.v;
    case "none":
      return b.t === "none";
    case "date":
      return b.t === "date" && a.days === b.days;
    case "time":
    case "timedelta":
    case "timezone":
      return b.t === a.t && a.us === b.us;
    case "datetime":
      if (b.t !== "datetime" || (a.offset === null) !== (b.offset === null)) return false;
      return a.us - (a.offset ?? 0n) === b.us - (b.offset ?? 0n);
    case "list":
    case "tuple":
      return b.t === a.t && a.items.length === b.items.length &&
        a.items.every((item, i) => pyEqual(item, b.items[i]));
    case "set":
      return b.t === "set" && sameMembers(a.items, b.items);
    case "dict":
      return b.t === "dict" && a.entries.length === b.entries.length &&
        a.entries.every(([k, v]) => {
          const other = b.entries.find(([key]) => pyEqual(k, key));
          return other !== undefined && pyEqual(v, other[1]);
        });
    default:
      return false;
  }
}

/** Python's `needle in haystack` for a plain container (dict keys, substrings), or null. */
export function pyContains(haystack: PyValue, needle: PyValue): boolean | null {
  switch (haystack.t) {
    case "list":
    case "tuple":
    case "set":
      return haystack.items.some((item) => pyEqual(item, needle));
    case "dict":
      return haystack.entries.some(([key]) => pyEqual(key, needle));
    case "str":
    case "bytes":
      return needle.t === haystack.t ? haystack.v.includes(needle.v) : null;
    default:
      return null;
  }
}

/** Python truthiness of a plain value, or null for an opaque one. */
export function pyTruthy(value: PyValue): boolean | null {
  switch (value.t) {
    case "num":
      return value.n !== 0n;
    case "float":
      return value.v !== 0;
    case "complex":
      return value.re !== 0 || value.im !== 0;
    case "str":
    case "bytes":
      return value.v.length > 0;
    case "none":
      return false;
    case "list":
    case "tuple":
    case "set":
      return value.items.length > 0;
    case "dict":
      return value.entries.length > 0;
    default:
      return null;
  }
}

/** A number as a float, or null (for `assertAlmostEqual`). */
export function pyFloat(value: PyValue): number | null {
  if (value.t === "num") return Number(value.n) / Number(value.d);
  if (value.t === "float") return value.v;
  return null;
}

/** A short Python-like rendering for failure messages. */
export function showPython(value: PyValue): string {
  switch (value.t) {
    case "num":
      if (value.bool) return value.n === 1n ? "True" : "False";
      return value.d === 1n ? String(value.n) : String(Number(value.n) / Number(value.d));
    case "float":
      return Number.isNaN(value.v) ? "nan" : value.v > 0 ? "inf" : "-inf";
    case "complex":
      return `(${value.re}+${value.im}j)`;
    case "str":
      return pythonRepr(value.v);
    case "bytes":
      return `bytes.fromhex(${JSON.stringify(value.v)})`;
    case "none":
      return "None";
    case "list":
      return `[${value.items.map(showPython).join(", ")}]`;
    case "tuple":
      return `(${value.items.map(showPython).join(", ")}${value.items.length === 1 ? "," : ""})`;
    case "set":
      return value.items.length === 0 ? "set()" : `{${value.items.map(showPython).join(", ")}}`;
    case "dict":
      return `{${value.entries.map(([k, v]) => `${showPython(k)}: ${showPython(v)}`).join(", ")}}`;
    case "date":
      return `date(${new Date(value.days * 86400000).toISOString().slice(0, 10)})`;
    case "datetime":
      return `datetime(${new Date(Number(value.us / 1000n)).toISOString().slice(0, 23)}${
        value.offset === null ? "" : ` offset ${Number(value.offset) / 1e6}s`
      })`;
    case "time":
      return `time(${Number(value.us) / 1e6}s)`;
    case "timedelta":
      return `timedelta(${Number(value.us) / 1e6}s)`;
    case "timezone":
      return `timezone(${Number(value.us) / 1e6}s)`;
    case "opaque":
      return `<${value.type} object>`;
  }
}

/** A string as Python's `repr` writes it (single quotes unless it holds one and no double). */
function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const body = [...text].map((c) => {
    if (c === "\\") return "\\\\";
    if (c === quote) return `\\${c}`;
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    if (c === "\r") return "\\r";
    const code = c.codePointAt(0)!;
    return code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, "0")}` : c;
  }).join("");
  return `${quote}${body}${quote}`;
}

/** Days since 1970-01-01 of a proleptic Gregorian date. */
function daysFrom(y: number, m: number, d: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return Math.round(date.getTime() / 86400000);
}

function localMicros(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, us = 0): bigint {
  const seconds = BigInt(daysFrom(y, mo, d)) * 86400n + BigInt(h * 3600 + mi * 60 + s);
  return seconds * 1000000n + BigInt(us);
}

/** `[days, seconds, microseconds]` as microseconds. */
function micros(parts: unknown[]): bigint {
  const [d, s, us] = parts.map((p) => BigInt(Number(p)));
  return (d * 86400n + s) * 1000000n + us;
}

type Num = Extract<PyValue, { t: "num" | "float" | "complex" }>;

function isNumber(value: PyValue): value is Num {
  return value.t === "num" || value.t === "float" || value.t === "complex";
}

function numbersEqual(a: Num, b: Num): boolean {
  if (a.t === "complex" || b.t === "complex") {
    const [ar, ai] = a.t === "complex" ? [a.re, a.im] : [toNumber(a), 0];
    const [br, bi] = b.t === "complex" ? [b.re, b.im] : [toNumber(b), 0];
    return ar === br && ai === bi;
  }
  if (a.t === "float" || b.t === "float") {
    // Only non-finite floats stay floats: nan equals nothing, infinities only themselves.
    return a.t === "float" && b.t === "float" && a.v === b.v;
  }
  return a.n * b.d === b.n * a.d;
}

function toNumber(value: Num): number {
  return value.t === "num"
    ? Number(value.n) / Number(value.d)
    : value.t === "float"
    ? value.v
    : NaN;
}

function sameMembers(a: PyValue[], b: PyValue[]): boolean {
  const unique = (items: PyValue[]) =>
    items.filter((item, i) => !items.slice(0, i).some((x) => pyEqual(x, item)));
  const [ua, ub] = [unique(a), unique(b)];
  return ua.length === ub.length && ua.every((item) => ub.some((x) => pyEqual(x, item)));
}

function ratio(n: bigint, d: bigint): PyValue {
  if (d < 0n) [n, d] = [-n, -d];
  if (d === 0n) return { t: "opaque", type: "?" };
  const g = gcd(n < 0n ? -n : n, d);
  return { t: "num", n: n / g, d: d / g };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}

/** A float as an exact ratio (every finite double is one), or itself when not finite. */
function fromFloat(v: number): PyValue {
  if (!Number.isFinite(v)) return { t: "float", v };
  if (Number.isInteger(v)) return { t: "num", n: BigInt(v), d: 1n };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? -1n : 1n;
  const exponent = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & 0xfffffffffffffn;
  let e: number;
  if (exponent === 0) e = -1074;
  else {
    mantissa |= 1n << 52n;
    e = exponent - 1075;
  }
  return e >= 0
    ? ratio(sign * mantissa << BigInt(e), 1n)
    : ratio(sign * mantissa, 1n << BigInt(-e));
}

/** A decimal string (`"4.50"`, `"-1e3"`) as an exact ratio, or a float for nan and infinities. */
function fromDecimalText(text: string): PyValue | null {
  const t = text.trim().replaceAll("_", "").toLowerCase();
  if (/^[+-]?(inf|infinity)$/.test(t)) {
    return { t: "float", v: t.startsWith("-") ? -Infinity : Infinity };
  }
  if (/^[+-]?s?nan$/.test(t)) return { t: "float", v: NaN };
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/.exec(t);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return null;
  const digits = BigInt(`${m[2]}${m[3] ?? ""}` || "0");
  const exp = Number(m[4] ?? "0") - (m[3] ?? "").length;
  const n = (m[1] === "-" ? -1n : 1n) * digits;
  return exp >= 0 ? ratio(n * 10n ** BigInt(exp), 1n) : ratio(n, 10n ** BigInt(-exp));
}

/** Constructors a built expected value may call, by their last dotted name. */
const CONSTRUCTORS = new Set([
  "Decimal",
  "Fraction",
  "Counter",
  "OrderedDict",
  "set",
  "frozenset",
  "tuple",
  "list",
  "dict",
  "float",
  "int",
  "str",
  "date",
  "datetime",
  "time",
  "timedelta",
  "timezone",
]);

/** An exact integer of a parsed value, or an error. */
function integer(value: PyValue | undefined, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (value?.t !== "num" || value.d !== 1n || value.bool) throw new Error("not an integer");
  return Number(value.n);
}

/** A standard date or time value: `date(y, m, d)`, `datetime(...)`, `time(...)`, `timedelta(...)`. */
function temporal(name: string, args: PyValue[], keywords: Map<string, PyValue>): PyValue {
  const arg = (i: number, key: string, fallback?: number) => {
    if (args[i] !== undefined && keywords.has(key)) throw new Error("given twice");
    return integer(args[i] ?? keywords.get(key), fallback);
  };
  const tz = (): bigint | null => {
    const given = keywords.get("tzinfo") ?? args[7];
    if (given === undefined || given.t === "none") return null;
    if (given.t !== "timezone") throw new Error("tzinfo");
    return given.us;
  };
  const known = (names: string[]) => {
    for (const key of keywords.keys()) if (!names.includes(key)) throw new Error(`keyword ${key}`);
  };
  switch (name) {
    case "date":
      known(["year", "month", "day"]);
      return { t: "date", days: daysFrom(arg(0, "year"), arg(1, "month"), arg(2, "day")) };
    case "datetime": {
      known(["year", "month", "day", "hour", "minute", "second", "microsecond", "tzinfo"]);
      const us = localMicros(
        arg(0, "year"),
        arg(1, "month"),
        arg(2, "day"),
        arg(3, "hour", 0),
        arg(4, "minute", 0),
        arg(5, "second", 0),
        arg(6, "microsecond", 0),
      );
      return { t: "datetime", us, offset: tz() };
    }
    case "time": {
      known(["hour", "minute", "second", "microsecond"]);
      if (args.length > 4) throw new Error("aware time");
      const seconds = arg(0, "hour", 0) * 3600 + arg(1, "minute", 0) * 60 + arg(2, "second", 0);
      return { t: "time", us: BigInt(seconds) * 1000000n + BigInt(arg(3, "microsecond", 0)) };
    }
    case "timedelta": {
      const units: [string, bigint][] = [
        ["days", 86400000000n],
        ["seconds", 1000000n],
        ["microseconds", 1n],
        ["milliseconds", 1000n],
        ["minutes", 60000000n],
        ["hours", 3600000000n],
        ["weeks", 604800000000n],
      ];
      known(units.map(([u]) => u));
      let total = 0n;
      units.forEach(([unit, scale], i) => {
        const value = args[i] ?? keywords.get(unit);
        if (value === undefined) return;
        if (value.t !== "num") throw new Error("timedelta of a non-number");
        const scaled = value.n * scale;
        if (scaled % value.d !== 0n) throw new Error("inexact timedelta");
        total += scaled / value.d;
      });
      return { t: "timedelta", us: total };
    }
    case "timezone":
      if (args.length !== 1 || args[0].t !== "timedelta" || keywords.size > 0) {
        throw new Error("tz");
      }
      return { t: "timezone", us: args[0].us };
  }
  throw new Error(name);
}

/** Python arithmetic on exact numbers (and `+` on strings, lists and tuples). */
function arithmetic(op: string, a: PyValue, b: PyValue): PyValue {
  if (op === "+" && (a.t === "str" || a.t === "list" || a.t === "tuple") && b.t === a.t) {
    return a.t === "str"
      ? { t: "str", v: a.v + (b as { v: string }).v }
      : { t: a.t, items: [...a.items, ...(b as { items: PyValue[] }).items] };
  }
  if (a.t !== "num" || b.t !== "num") throw new Error("arithmetic on non-numbers");
  const ints = a.d === 1n && b.d === 1n;
  switch (op) {
    case "+":
      return ratio(a.n * b.d + b.n * a.d, a.d * b.d);
    case "-":
      return ratio(a.n * b.d - b.n * a.d, a.d * b.d);
    case "*":
      return ratio(a.n * b.n, a.d * b.d);
    case "/": {
      if (b.n === 0n) throw new Error("division by zero");
      // True division makes a float: the exact quotient rounded to a double.
      const q = ratio(a.n * b.d, a.d * b.n) as Extract<PyValue, { t: "num" }>;
      return fromFloat(Number(q.n) / Number(q.d));
    }
    case "//":
    case "%": {
      if (!ints || b.n === 0n) throw new Error("floor division of non-integers");
      const q = a.n / b.n - ((a.n % b.n !== 0n) && ((a.n < 0n) !== (b.n < 0n)) ? 1n : 0n);
      return op === "//" ? { t: "num", n: q, d: 1n } : { t: "num", n: a.n - q * b.n, d: 1n };
    }
    case "**": {
      if (!ints || b.n < 0n || b.n > 4096n) throw new Error("power");
      return { t: "num", n: a.n ** b.n, d: 1n };
    }
  }
  throw new Error(op);
}

/**
 * What the parser throws at a name that starts no literal: the usual case for the value side of a
 * check (`median(xs)`, `self.x`). Made once, since {@linkcode parsePython} only needs to know it
 * failed, and a new error's stack trace costs more than the whole parse.
 */
const NOT_LITERAL = new Error("not a literal");

class Parser {
  i = 0;
  constructor(readonly s: string) {}

  done(): boolean {
    return this.i >= this.s.length;
  }

  space(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  peek(text: string): boolean {
    this.space();
    return this.s.startsWith(text, this.i);
  }

  eat(text: string): boolean {
    if (!this.peek(text)) return false;
    this.i += text.length;
    return true;
  }

  expect(text: string): void {
    if (!this.eat(text)) throw new Error(`expected ${text}`);
  }

  /** An expression: terms joined by `+` and `-` (numbers only; strings and lists concatenate). */
  expression(): PyValue {
    let value = this.term();
    for (;;) {
      this.space();
      const c = this.s[this.i];
      if ((c !== "+" && c !== "-") || this.s[this.i + 1] === "=") return value;
      this.i++;
      value = arithmetic(c, value, this.term());
    }
  }

  term(): PyValue {
    let value = this.power();
    for (;;) {
      this.space();
      const op = /^(\/\/|\*(?!\*)|\/|%)/.exec(this.s.slice(this.i))?.[0];
      if (op === undefined || this.s[this.i + op.length] === "=") return value;
      this.i += op.length;
      value = arithmetic(op, value, this.power());
    }
  }

  power(): PyValue {
    const base = this.unary();
    if (!this.peek("**")) return base;
    this.i += 2;
    return arithmetic("**", base, this.power());
  }

  unary(): PyValue {
    this.space();
    const c = this.s[this.i];
    if (c === "-" || c === "+") {
      this.i++;
      const value = this.unary();
      if (c === "+") return value;
      if (value.t === "num") return { t: "num", n: -value.n, d: value.d };
      if (value.t === "float") return { t: "float", v: -value.v };
      if (value.t === "complex") return { t: "complex", re: -value.re, im: -value.im };
      throw new Error("bad sign");
    }
    if (c === "[") {
      this.i++;
      return { t: "list", items: this.items("]") };
    }
    if (c === "(") {
      this.i++;
      if (this.eat(")")) return { t: "tuple", items: [] };
      const first = this.expression();
      if (this.eat(")")) return first;
      this.expect(",");
      return { t: "tuple", items: [first, ...this.items(")")] };
    }
    if (c === "{") {
      this.i++;
      if (this.eat("}")) return { t: "dict", entries: [] };
      const first = this.expression();
      if (this.eat(":")) {
        const entries: [PyValue, PyValue][] = [[first, this.expression()]];
        while (this.eat(",")) {
          if (this.peek("}")) break;
          const key = this.expression();
          this.expect(":");
          entries.push([key, this.expression()]);
        }
        this.expect("}");
        return { t: "dict", entries: dedupe(entries) };
      }
      const items = [first];
      if (this.eat(",")) items.push(...this.items("}"));
      else this.expect("}");
      return { t: "set", items };
    }
    const string = this.string();
    if (string !== null) return string;
    const number =
      /^(?:0[xX][\da-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*)?\.?[\d_]*(?:[eE][+-]?\d+)?)[jJ]?/
        .exec(this.s.slice(this.i));
    if (number && number[0] !== "" && number[0] !== "." && /\d/.test(number[0])) {
      this.i += number[0].length;
      return numberLiteral(number[0].replaceAll("_", ""));
    }
    const name = /^[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*/.exec(this.s.slice(this.i));
    if (!name) throw NOT_LITERAL;
    this.i += name[0].length;
    const word = name[0].replace(/\s/g, "");
    if (word === "True" || word === "False") {
      return { t: "num", n: word === "True" ? 1n : 0n, d: 1n, bool: true };
    }
    if (word === "None") return { t: "none" };
    if (/^(?:datetime\.)?timezone\.utc$|^(?:datetime\.)?UTC$/.test(word)) {
      return { t: "timezone", us: 0n };
    }
    const last = word.slice(word.lastIndexOf(".") + 1);
    if (!CONSTRUCTORS.has(last) || !this.eat("(")) throw NOT_LITERAL;
    const args: PyValue[] = [];
    const keywords = new Map<string, PyValue>();
    while (!this.eat(")")) {
      this.space();
      const keyword = /^([A-Za-z_]\w*)\s*=(?!=)/.exec(this.s.slice(this.i));
      if (keyword) {
        this.i += keyword[0].length;
        keywords.set(keyword[1], this.expression());
      } else if (keywords.size > 0) throw new Error("positional after keyword");
      else args.push(this.expression());
      if (!this.eat(",")) {
        this.expect(")");
        break;
      }
    }
    return construct(last, args, keywords);
  }

  items(close: string): PyValue[] {
    const items: PyValue[] = [];
    while (!this.eat(close)) {
      items.push(this.expression());
      if (!this.eat(",")) {
        this.expect(close);
        break;
      }
    }
    return items;
  }

  /** Adjacent string literals, concatenated, or null when none starts here. */
  string(): PyValue | null {
    let kind: "str" | "bytes" | null = null;
    let value = "";
    for (;;) {
      this.space();
      const m = /^([rRbBuU]{0,2})('''|"""|'|")/.exec(this.s.slice(this.i));
      if (!m) break;
      const prefix = m[1].toLowerCase();
      const bytes = prefix.includes("b");
      if (kind !== null && (kind === "bytes") !== bytes) throw new Error("mixed strings");
      kind = bytes ? "bytes" : "str";
      const quote = m[2];
      this.i += m[0].length;
      const end = this.findClose(quote);
      const body = this.s.slice(this.i, end);
      this.i = end + quote.length;
      value += prefix.includes("r") ? body : unescape(body, bytes);
    }
    if (kind === null) return null;
    if (kind === "bytes") {
      return {
        t: "bytes",
        v: [...value].map((ch) => ch.charCodeAt(0).toString(16).padStart(2, "0")).join(""),
      };
    }
    return { t: "str", v: value };
  }

  findClose(quote: string): number {
    for (let j = this.i; j < this.s.length; j++) {
      if (this.s[j] === "\\") j++;
      else if (this.s.startsWith(quote, j)) return j;
    }
    throw new Error("unterminated string");
  }
}

function dedupe(entries: [PyValue, PyValue][]): [PyValue, PyValue][] {
  const out: [PyValue, PyValue][] = [];
  for (const [k, v] of entries) {
    const at = out.findIndex(([key]) => pyEqual(key, k));
    if (at >= 0) out[at] = [out[at][0], v];
    else out.push([k, v]);
  }
  return out;
}

function numberLiteral(text: string): PyValue {
  if (/[jJ]$/.test(text)) return { t: "complex", re: 0, im: Number(text.slice(0, -1)) };
  if (/^0[xob]/i.test(text)) return { t: "num", n: BigInt(text), d: 1n };
  if (/^\d+$/.test(text)) return { t: "num", n: BigInt(text), d: 1n };
  const v = Number(text);
  if (Number.isNaN(v)) throw new Error("bad number");
  return fromFloat(v);
}

function construct(name: string, args: PyValue[], keywords = new Map<string, PyValue>()): PyValue {
  const [first] = args;
  if (["date", "datetime", "time", "timedelta", "timezone"].includes(name)) {
    return temporal(name, args, keywords);
  }
  if (keywords.size > 0) throw new Error(`keywords of ${name}()`);
  const sequence = (value: PyValue | undefined): PyValue[] => {
    if (value === undefined) return [];
    if (value.t === "list" || value.t === "tuple" || value.t === "set") return value.items;
    if (value.t === "str") return [...value.v].map((v) => ({ t: "str", v }));
    if (value.t === "dict") return value.entries.map(([k]) => k);
    throw new Error("not iterable");
  };
  switch (name) {
    case "Decimal": {
      if (args.length > 1) break;
      if (first === undefined) return { t: "num", n: 0n, d: 1n };
      if (first.t === "str") {
        const value = fromDecimalText(first.v);
        if (value !== null) return value;
      }
      if (first.t === "num" && first.d === 1n) return { t: "num", n: first.n, d: 1n };
      break;
    }
    case "Fraction": {
      if (args.length === 2 && args.every((a) => a.t === "num" && a.d === 1n)) {
        const [a, b] = args as Extract<PyValue, { t: "num" }>[];
        return ratio(a.n, b.n);
      }
      if (args.length === 1 && first.t === "num" && first.d === 1n) return first;
      break;
    }
    case "Counter":
    case "OrderedDict":
    case "dict":
      if (args.length === 0) return { t: "dict", entries: [] };
      if (args.length === 1 && first.t === "dict") return first;
      if (args.length === 1 && (first.t === "list" || first.t === "tuple") && name !== "Counter") {
        return {
          t: "dict",
          entries: dedupe(first.items.map((pair) => {
            if ((pair.t !== "tuple" && pair.t !== "list") || pair.items.length !== 2) {
              throw new Error("not a pair");
            }
            return [pair.items[0], pair.items[1]];
          })),
        };
      }
      break;
    case "set":
    case "frozenset":
      if (args.length <= 1) return { t: "set", items: sequence(first) };
      break;
    case "tuple":
    case "list":
      if (args.length <= 1) return { t: name, items: sequence(first) };
      break;
    case "float":
      if (args.length === 1 && first.t === "str") {
        const v = /^\s*[+-]?(inf|infinity|nan)\s*$/i.test(first.v)
          ? Number(
            first.v.trim().toLowerCase().replace("infinity", "inf").replace("inf", "Infinity")
              .replace("nan", "NaN"),
          )
          : Number(first.v);
        if (!Number.isNaN(v) || /nan/i.test(first.v)) return fromFloat(v);
      }
      if (args.length === 1 && first.t === "num") {
        return fromFloat(Number(first.n) / Number(first.d));
      }
      break;
  }
  throw new Error(`unsupported ${name}()`);
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "\n": "",
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

function unescape(body: string, bytes: boolean): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== "\\") {
      out += c;
      continue;
    }
    const next = body[++i];
    if (next in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[next];
    else if (/[0-7]/.test(next)) {
      const oct = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      out += String.fromCharCode(parseInt(oct, 8));
      i += oct.length - 1;
    } else if (next === "x") {
      out += String.fromCharCode(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (!bytes && (next === "u" || next === "U")) {
      const len = next === "u" ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + len);
      if (!/^[\da-fA-F]+$/.test(hex) || hex.length !== len) throw new Error("bad escape");
      out += String.fromCodePoint(parseInt(hex, 16));
      i += len;
    } else if (!bytes && next === "N") throw new Error("named escape");
    else out += `\\${next}`;
  }
  return out;
}
