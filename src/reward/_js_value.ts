/**
 * JavaScript values outside the test process: expected values read from a deno test's source
 * text (literals: numbers, strings, templates without substitutions, booleans, null, undefined,
 * arrays, objects with bare, quoted or numeric keys), and the values the preload observed; compared
 * as `node:assert/strict` compares them (`Object.is` for `equal`, strict deep equality for
 * `deepEqual`), or as jest's `toEqual` does (entries whose value is undefined left out).
 */

/** A JavaScript value patchgym can compare; `other` is an object that is not plain data. */
export type JsValue =
  | { t: "number"; v: number }
  | { t: "string"; v: string }
  | { t: "boolean"; v: boolean }
  | { t: "bigint"; v: string }
  | { t: "null" }
  | { t: "undefined" }
  | { t: "array"; items: JsValue[] }
  | { t: "object"; entries: [string, JsValue][] }
  | { t: "other"; type: string };

/** The value of a JavaScript literal, or null. */
export function parseJs(text: string): JsValue | null {
  try {
    const parser = new JsParser(text);
    const value = parser.value();
    parser.space();
    return parser.i >= text.length ? value : null;
  } catch {
    return null;
  }
}

/**
 * A value the preload observed: `["n", "1.5"]` (numbers as text: `-0`, `NaN`, `Infinity`),
 * `["s", text]`, `["b", bool]`, `["g", digits]`, `["z"]`, `["u"]`, `["a", items]`,
 * `["o", [[key, value], ...]]` (a plain object), `["x", type]` (anything else).
 */
export function observedJs(json: unknown): JsValue {
  if (!Array.isArray(json)) return { t: "other", type: "?" };
  const [tag, a] = json;
  try {
    switch (tag) {
      case "n":
        return { t: "number", v: Number(a) };
      case "s":
        return { t: "string", v: String(a) };
      case "b":
        return { t: "boolean", v: a === true };
      case "g":
        return { t: "bigint", v: String(a) };
      case "z":
        return { t: "null" };
      case "u":
        return { t: "undefined" };
      case "a":
        return { t: "array", items: (a as unknown[]).map(observedJs) };
      case "o":
        return {
          t: "object",
          entries: (a as [string, unknown][]).map(([k, v]) => [String(k), observedJs(v)]),
        };
    }
  } catch {
    // Malformed: equal to nothing.
  }
  return { t: "other", type: typeof a === "string" ? a : "?" };
}

/** `assert.strictEqual`: `Object.is` on primitives; an object equals no literal. */
export function jsIs(a: JsValue, b: JsValue): boolean {
  switch (a.t) {
    case "number":
      return b.t === "number" && Object.is(a.v, b.v);
    case "string":
    case "boolean":
    case "bigint":
      return b.t === a.t && a.v === b.v;
    case "null":
    case "undefined":
      return b.t === a.t;
    default:
      return false;
  }
}

/** `assert.deepStrictEqual` over plain data. */
export function jsDeep(a: JsValue, b: JsValue): boolean {
  if (a.t === "array") {
    return b.t === "array" && a.items.length === b.items.length &&
      a.items.every((item, i) => jsDeep(item, b.items[i]));
  }
  if (a.t === "object") {
    if (b.t !== "object" || a.entries.length !== b.entries.length) return false;
    const other = new Map(b.entries);
    return a.entries.every(([k, v]) => other.has(k) && jsDeep(v, other.get(k)!));
  }
  return jsIs(a, b);
}

/**
 * jest's `toEqual` over plain data: `Object.is` on primitives; arrays with arrays and objects with
 * objects by their entries, an entry whose value is undefined counting as absent (`[1, undefined]`
 * equals `[1]`, `{ a: 1, b: undefined }` equals `{ a: 1 }`). What the driver observed for a
 * `toEqual` reads holes as undefined and any object jest's `equals` compares by its keys (a class
 * instance, an object without prototype) as an object.
 */
export function jsLoose(a: JsValue, b: JsValue): boolean {
  if (a.t === "array" || a.t === "object") {
    if (b.t !== a.t) return false;
    const mine = defined(a);
    const theirs = defined(b);
    return mine.size === theirs.size &&
      [...mine].every(([k, v]) => theirs.has(k) && jsLoose(v, theirs.get(k)!));
  }
  return jsIs(a, b);
}

/** The entries of an array (by index) or an object whose value is not undefined. */
function defined(value: JsValue & { t: "array" | "object" }): Map<string, JsValue> {
  const entries: [string, JsValue][] = value.t === "array"
    ? value.items.map((item, i) => [String(i), item])
    : value.entries;
  return new Map(entries.filter(([, v]) => v.t !== "undefined"));
}

/** A short rendering for failure messages. */
export function showJs(value: JsValue): string {
  switch (value.t) {
    case "number":
      return Object.is(value.v, -0) ? "-0" : String(value.v);
    case "string":
      return JSON.stringify(value.v);
    case "boolean":
      return String(value.v);
    case "bigint":
      return `${value.v}n`;
    case "null":
    case "undefined":
      return value.t;
    case "array":
      return `[${value.items.map(showJs).join(", ")}]`;
    case "object":
      return `{ ${
        value.entries.map(([k, v]) => `${JSON.stringify(k)}: ${showJs(v)}`).join(", ")
      } }`;
    case "other":
      return `<${value.type}>`;
  }
}

class JsParser {
  i = 0;
  constructor(readonly s: string) {}

  space(): void {
    while (this.i < this.s.length) {
      if (/\s/.test(this.s[this.i])) this.i++;
      else if (this.s.startsWith("//", this.i)) {
        const nl = this.s.indexOf("\n", this.i);
        this.i = nl < 0 ? this.s.length : nl;
      } else if (this.s.startsWith("/*", this.i)) {
        const close = this.s.indexOf("*/", this.i + 2);
        if (close < 0) throw new Error("comment");
        this.i = close + 2;
      } else break;
    }
  }

  eat(text: string): boolean {
    this.space();
    if (!this.s.startsWith(text, this.i)) return false;
    this.i += text.length;
    return true;
  }

  /** A value, with `+ - * / %` on numbers (and `+` on strings) folded as JavaScript would. */
  value(): JsValue {
    let value = this.term();
    for (;;) {
      this.space();
      const c = this.s[this.i];
      if ((c !== "+" && c !== "-") || this.s[this.i + 1] === c || this.s[this.i + 1] === "=") {
        return value;
      }
      this.i++;
      const right = this.term();
      if (c === "+" && value.t === "string" && right.t === "string") {
        value = { t: "string", v: value.v + right.v };
      } else if (value.t === "number" && right.t === "number") {
        value = { t: "number", v: c === "+" ? value.v + right.v : value.v - right.v };
      } else throw new Error("arithmetic");
    }
  }

  term(): JsValue {
    let value = this.unary();
    for (;;) {
      this.space();
      const c = this.s[this.i];
      if (
        (c !== "*" && c !== "/" && c !== "%") || this.s[this.i + 1] === "=" ||
        this.s[this.i + 1] === "*"
      ) {
        return value;
      }
      if (c === "/" && (this.s[this.i + 1] === "/" || this.s[this.i + 1] === "*")) return value;
      this.i++;
      const right = this.unary();
      if (value.t !== "number" || right.t !== "number") throw new Error("arithmetic");
      value = {
        t: "number",
        v: c === "*" ? value.v * right.v : c === "/" ? value.v / right.v : value.v % right.v,
      };
    }
  }

  unary(): JsValue {
    this.space();
    const c = this.s[this.i];
    if (c === "-" || c === "+") {
      this.i++;
      const v = this.unary();
      if (v.t === "number") return { t: "number", v: c === "-" ? -v.v : v.v };
      if (v.t === "bigint" && c === "-") {
        return { t: "bigint", v: v.v.startsWith("-") ? v.v.slice(1) : `-${v.v}` };
      }
      throw new Error("sign");
    }
    if (c === "[") {
      this.i++;
      const items: JsValue[] = [];
      while (!this.eat("]")) {
        if (this.eat(",")) throw new Error("hole");
        items.push(this.value());
        if (!this.eat(",")) {
          if (!this.eat("]")) throw new Error("array");
          break;
        }
      }
      return { t: "array", items };
    }
    if (c === "{") {
      this.i++;
      const entries: [string, JsValue][] = [];
      while (!this.eat("}")) {
        this.space();
        let key: string;
        const q = this.s[this.i];
        if (q === '"' || q === "'") key = this.string(q);
        else {
          const m = /^(?:[A-Za-z_$][\w$]*|\d+(?:\.\d+)?)/.exec(this.s.slice(this.i));
          if (!m) throw new Error("key");
          this.i += m[0].length;
          key = /^\d/.test(m[0]) ? String(Number(m[0])) : m[0];
        }
        if (!this.eat(":")) throw new Error("shorthand");
        const value = this.value();
        const at = entries.findIndex(([k]) => k === key);
        if (at >= 0) entries.splice(at, 1);
        entries.push([key, value]);
        if (!this.eat(",")) {
          if (!this.eat("}")) throw new Error("object");
          break;
        }
      }
      return { t: "object", entries };
    }
    if (c === '"' || c === "'") return { t: "string", v: this.string(c) };
    if (c === "`") {
      const close = this.s.indexOf("`", this.i + 1);
      const body = this.s.slice(this.i + 1, close);
      if (close < 0 || body.includes("${") || body.includes("\\")) throw new Error("template");
      this.i = close + 1;
      return { t: "string", v: body };
    }
    const num =
      /^(?:0[xX][\da-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|\d[\d_]*(?:\.[\d_]*)?(?:[eE][+-]?\d+)?|\.\d[\d_]*(?:[eE][+-]?\d+)?)(n?)/
        .exec(this.s.slice(this.i));
    if (num) {
      this.i += num[0].length;
      const digits = num[0].replace(/n$/, "").replaceAll("_", "");
      if (num[1] === "n") return { t: "bigint", v: BigInt(digits).toString() };
      return { t: "number", v: Number(digits) };
    }
    const word = /^[A-Za-z_$][\w$]*/.exec(this.s.slice(this.i));
    if (!word) throw new Error("literal");
    this.i += word[0].length;
    switch (word[0]) {
      case "true":
      case "false":
        return { t: "boolean", v: word[0] === "true" };
      case "null":
        return { t: "null" };
      case "undefined":
        return { t: "undefined" };
      case "NaN":
        return { t: "number", v: NaN };
      case "Infinity":
        return { t: "number", v: Infinity };
    }
    throw new Error("name");
  }

  string(quote: string): string {
    let j = this.i + 1;
    for (; j < this.s.length && this.s[j] !== quote; j++) {
      if (this.s[j] === "\\") j++;
      if (this.s[j] === "\n") throw new Error("newline");
    }
    if (j >= this.s.length) throw new Error("unterminated");
    const body = this.s.slice(this.i + 1, j);
    this.i = j + 1;
    const json = quote === "'" ? body.replace(/\\'/g, "'").replace(/(?<!\\)"/g, '\\"') : body;
    return JSON.parse(`"${json}"`);
  }
}
