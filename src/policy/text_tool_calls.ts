/**
 * Tool calls written as text. Models served without a tool-call parser (vLLM without
 * `--tool-call-parser`, llama.cpp, raw Ollama) put their calls in `message.content`; this module
 * finds them, repairs the usual damage to their JSON and sets `<think>` reasoning apart.
 *
 * Formats: Hermes/Qwen `<tool_call>` blocks, `<function_call>` blocks, Llama `<function=NAME>`
 * blocks, Mistral `[TOOL_CALLS]`, Llama `<|python_tag|>`, fenced JSON, and a bare JSON object that
 * is the whole message. It never evaluates code and never throws: a block that looks like a tool
 * call but cannot be read becomes an entry in `errors`.
 */
import { parseJson, wellFormed } from "../well_formed.ts";

/** One tool call found in the text. */
export interface ParsedToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** repairs applied, e.g. ["trailing_comma"] */
  repairs: string[];
  /** The block the call came from, as written. */
  raw: string;
}

/** Everything found in one message. */
export interface TextToolCallParse {
  calls: ParsedToolCall[];
  /** <think>...</think> reasoning text, joined, or null */
  reasoning: string | null;
  /** content with reasoning and tool-call blocks removed, trimmed */
  text: string;
  /** blocks that looked like tool calls but could not be parsed, with a reason */
  errors: { raw: string; message: string }[];
}

/** Damage the lenient JSON reader can undo; the names end up in `ParsedToolCall.repairs`. */
type Repair =
  /** A raw line break inside a string. */
  | "literal_newline"
  /** A raw tab inside a string. */
  | "literal_tab"
  /** Another raw control character inside a string. */
  | "control_character"
  /** A comma before `}` or `]`. */
  | "trailing_comma"
  /** A `}` or `]` missing at the end, or written as the other kind. */
  | "missing_brace"
  /** Surplus `}` or `]` after the value. */
  | "extra_brace"
  /** Python-style `'...'` strings or keys. */
  | "single_quotes"
  /** `“...”` or `‘...’` around a key or string. */
  | "smart_quotes"
  /** `True`, `False` or `None`. */
  | "python_literals"
  /** A Markdown code fence inside a tag block. */
  | "code_fence"
  /** A backslash before a character JSON cannot escape (`\d`), kept as a backslash. */
  | "invalid_escape"
  /** A quote inside a string that cannot be the string's end, kept as a quote. */
  | "unescaped_quote"
  /** A bare identifier as an object key. */
  | "unquoted_key";

/** Find the tool calls, reasoning and remaining prose in a model message. */
export function parseTextToolCalls(content: string): TextToolCallParse {
  const thinking = findReasoning(content);
  let masked = maskSpans(content, thinking.spans);
  const tagBlocks = findTagBlocks(masked);
  masked = maskSpans(masked, tagBlocks);
  const blocks = [...tagBlocks, ...findFenceBlocks(masked)].sort((a, b) => a.start - b.start);

  const calls: ParsedToolCall[] = [];
  const errors: { raw: string; message: string }[] = [];
  const removed: Span[] = [...thinking.spans];
  function record(block: Block): void {
    const outcome = readBlock(block);
    if (outcome.kind === "not_a_call") return;
    removed.push(block);
    const raw = content.slice(block.start, block.end);
    if (outcome.kind === "error") errors.push({ raw, message: outcome.message });
    else for (const call of outcome.calls) calls.push({ ...call, raw });
  }
  for (const block of blocks) record(block);
  if (calls.length === 0 && errors.length === 0) {
    const bare = findBareJson(masked);
    if (bare) record(bare);
  }

  const reasoning = thinking.parts.map((part) => part.trim()).filter((part) => part !== "");
  return {
    calls,
    reasoning: reasoning.length > 0 ? reasoning.join("\n\n") : null,
    text: removeSpans(content, removed).replace(/\n{3,}/g, "\n\n").trim(),
    errors,
  };
}

// ---------------------------------------------------------------------------------------------
// Finding blocks

interface Span {
  start: number;
  end: number;
}

/**
 * A stretch of the message that may hold tool calls. `tagged` blocks are tool calls by their
 * markup, so anything unreadable in them is an error; `untagged` ones (JSON fences, a bare
 * message) count only when their JSON has the shape of a call; `function_tag` bodies are the
 * arguments of the call named in the tag; `empty` ones are fences left empty by removed blocks.
 */
interface Block extends Span {
  body: string;
  format: "tagged" | "untagged" | "function_tag" | "empty";
  functionName?: string;
}

/** Where tag-style calls start; also where an unclosed `<think>` ends. */
const TAG_OPEN =
  /<tool_call>|<function_call>|<function=([^>\n]*)>|\[TOOL_CALLS\]|<\|python_tag\|>/g;

/** For each opening tag: what ends its body, besides the end of the message. */
const TAG_ENDS: Record<string, { closers: string[]; nextOpen: string }> = {
  "<tool_call>": { closers: ["</tool_call>"], nextOpen: "<tool_call>" },
  "<function_call>": { closers: ["</function_call>"], nextOpen: "<function_call>" },
  "<function=": { closers: ["</function>"], nextOpen: "<function=" },
  "[TOOL_CALLS]": { closers: ["</s>"], nextOpen: "[TOOL_CALLS]" },
  "<|python_tag|>": { closers: ["<|eom_id|>", "<|eot_id|>"], nextOpen: "<|python_tag|>" },
};

/** Fence languages that declare a tool call: unreadable JSON in them is an error. */
const CALL_FENCE_LANGUAGES = new Set(["tool_call", "tool_calls", "tool", "function_call"]);
/** Fence languages whose JSON is a tool call only if it has the shape of one. */
const JSON_FENCE_LANGUAGES = new Set(["", "json", "json5", "jsonc"]);

/** `<think>` blocks, an unclosed `<think>` (up to the first tool call), a leading `...</think>`. */
function findReasoning(content: string): { parts: string[]; spans: Span[] } {
  const parts: string[] = [];
  const spans: Span[] = [];
  let at = 0;
  const firstClose = content.indexOf("</think>");
  const firstOpen = content.indexOf("<think>");
  const indexOf = forwardIndexOf(content);
  // Qwen3 chat templates put `<think>` in the prompt, so the reply starts inside the reasoning.
  if (firstClose !== -1 && (firstOpen === -1 || firstClose < firstOpen)) {
    parts.push(content.slice(0, firstClose));
    at = firstClose + "</think>".length;
    spans.push({ start: 0, end: at });
  }
  while (true) {
    const open = indexOf("<think>", at);
    if (open === -1) break;
    const bodyStart = open + "<think>".length;
    const close = indexOf("</think>", bodyStart);
    if (close !== -1) {
      parts.push(content.slice(bodyStart, close));
      at = close + "</think>".length;
    } else {
      const marker = new RegExp(TAG_OPEN.source, "g");
      marker.lastIndex = bodyStart;
      at = marker.exec(content)?.index ?? content.length;
      parts.push(content.slice(bodyStart, at));
    }
    spans.push({ start: open, end: at });
  }
  return { parts, spans };
}

/** Blocks opened by a tool-call tag; an unclosed one runs to the next such tag or the end. */
function findTagBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const opener = new RegExp(TAG_OPEN.source, "g");
  const indexOf = forwardIndexOf(text);
  for (let match = opener.exec(text); match; match = opener.exec(text)) {
    const isFunction = match[1] !== undefined;
    const ends = TAG_ENDS[isFunction ? "<function=" : match[0]];
    const bodyStart = match.index + match[0].length;
    let bodyEnd = text.length;
    let end = text.length;
    for (const closer of ends.closers) {
      const index = indexOf(closer, bodyStart);
      if (index !== -1 && index < bodyEnd) [bodyEnd, end] = [index, index + closer.length];
    }
    const next = indexOf(ends.nextOpen, bodyStart);
    if (next !== -1 && next < bodyEnd) [bodyEnd, end] = [next, next];
    blocks.push({
      start: match.index,
      end,
      body: text.slice(bodyStart, bodyEnd),
      format: isFunction ? "function_tag" : "tagged",
      ...(isFunction ? { functionName: match[1].trim().replace(/^["']|["']$/g, "") } : {}),
    });
    opener.lastIndex = end;
  }
  return blocks;
}

/** Fenced blocks that may hold JSON tool calls; an unclosed fence runs to the end. */
function findFenceBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const opener = /^[ \t]*```[ \t]*([\w-]*)[^\n]*\n/gm;
  const closer = /^[ \t]*```[ \t]*$/gm;
  for (let match = opener.exec(text); match; match = opener.exec(text)) {
    const bodyStart = match.index + match[0].length;
    closer.lastIndex = bodyStart;
    const close = closer.exec(text);
    const bodyEnd = close ? close.index : text.length;
    const end = close ? close.index + close[0].length : text.length;
    opener.lastIndex = end;
    const body = text.slice(bodyStart, bodyEnd);
    const language = match[1].toLowerCase();
    const block = { start: match.index, end, body };
    if (body.trim() === "") blocks.push({ ...block, format: "empty" });
    else if (!/^\s*[[{]/.test(body)) continue;
    else if (CALL_FENCE_LANGUAGES.has(language)) blocks.push({ ...block, format: "tagged" });
    else if (JSON_FENCE_LANGUAGES.has(language)) blocks.push({ ...block, format: "untagged" });
  }
  return blocks;
}

/** The whole message, when it is a JSON object or array and nothing else. */
function findBareJson(text: string): Block | null {
  const start = text.search(/\S/);
  if (start === -1 || (text[start] !== "{" && text[start] !== "[")) return null;
  const end = text.trimEnd().length;
  return { start, end, body: text.slice(start, end), format: "untagged" };
}

/** Blank out spans, keeping line breaks so later line-based patterns still line up. */
function maskSpans(text: string, spans: Span[]): string {
  const pieces: string[] = [];
  let at = 0;
  for (const { start, end } of [...spans].sort((a, b) => a.start - b.start)) {
    pieces.push(text.slice(at, start), text.slice(start, end).replace(/[^\n]/g, " "));
    at = end;
  }
  pieces.push(text.slice(at));
  return pieces.join("");
}

/**
 * `text.indexOf` for calls whose start only moves forward: it remembers each needle's last
 * answer, so finding the ends of many blocks stays linear in the length of the text.
 */
function forwardIndexOf(text: string): (needle: string, from: number) => number {
  const found = new Map<string, number>();
  return (needle, from) => {
    const last = found.get(needle);
    if (last !== undefined && (last === -1 || last >= from)) return last;
    const index = text.indexOf(needle, from);
    found.set(needle, index);
    return index;
  };
}

function removeSpans(text: string, spans: Span[]): string {
  const pieces: string[] = [];
  let at = 0;
  for (const { start, end } of [...spans].sort((a, b) => a.start - b.start)) {
    pieces.push(text.slice(at, Math.max(at, start)));
    at = Math.max(at, end);
  }
  pieces.push(text.slice(at));
  return pieces.join("\n");
}

// ---------------------------------------------------------------------------------------------
// Reading blocks as calls

type CallFields = Pick<ParsedToolCall, "name" | "arguments" | "repairs">;

type BlockOutcome =
  | { kind: "calls"; calls: CallFields[] }
  | { kind: "error"; message: string }
  | { kind: "not_a_call" };

const NAME_KEYS = ["name", "tool", "tool_name", "function"];
const ARGUMENT_KEYS = ["arguments", "parameters", "args", "input", "params"];
const SHAPE_HINT = 'use {"name": "<tool>", "arguments": {...}}';
const SYNTAX_HINT = "resend the tool call as valid JSON";
/** Unreadable JSON outside tags is reported only if it seems to name a tool. */
const NAMES_A_TOOL = /["'“”‘’]?\b(?:name|tool|function)\b["'“”‘’]?\s*:/;

function readBlock(block: Block): BlockOutcome {
  if (block.format === "empty") return { kind: "calls", calls: [] };
  const { json: fencedJson, fenced } = stripCodeFence(block.body);
  // Error positions count from the first character of the JSON, not from the tag.
  const json = fencedJson.trim();
  const fenceRepairs: Repair[] = fenced ? ["code_fence"] : [];
  if (block.format === "function_tag") {
    return readFunctionTag(block.functionName ?? "", json, fenceRepairs);
  }

  const parsed = parseJsonValues(json);
  if (!parsed.ok) {
    if (block.format === "untagged" && !NAMES_A_TOOL.test(json)) return { kind: "not_a_call" };
    return fail(`${parsed.message}; ${SYNTAX_HINT}`);
  }
  const calls: CallFields[] = [];
  for (const value of parsed.values) {
    const found = callsFromValue(value, block.format === "untagged");
    if (typeof found === "string") return fail(found);
    if (found === null) {
      if (block.format === "untagged") return { kind: "not_a_call" };
      return fail(`expected a JSON object with "name" and "arguments"; ${SHAPE_HINT}`);
    }
    for (const call of found) {
      calls.push({
        ...call,
        repairs: unique([...fenceRepairs, ...parsed.repairs, ...call.repairs]),
      });
    }
  }
  return { kind: "calls", calls };
}

/** `<function=NAME>{arguments}</function>`: the body is the arguments object itself. */
function readFunctionTag(name: string, json: string, fenceRepairs: Repair[]): BlockOutcome {
  if (name === "") return fail(`missing function name in "<function=...>"; ${SHAPE_HINT}`);
  if (json === "") {
    return { kind: "calls", calls: [{ name, arguments: {}, repairs: fenceRepairs }] };
  }
  const args = readArguments(json);
  if (typeof args === "string") return fail(args);
  const repairs = unique([...fenceRepairs, ...args.repairs]);
  return { kind: "calls", calls: [{ name, arguments: args.arguments, repairs }] };
}

function fail(detail: string): BlockOutcome {
  return { kind: "error", message: `Cannot parse tool call: ${detail}` };
}

/**
 * The calls in a parsed JSON value, an error message, or null when the value is not shaped like
 * a call. Outside tags (`untagged`) a name without arguments counts only when it is the only key,
 * so that JSON such as a `package.json` shown in a fence is not taken for a call.
 */
function callsFromValue(value: unknown, untagged: boolean): CallFields[] | string | null {
  if (isRecord(value) && Array.isArray(value.tool_calls)) {
    return callsFromValue(value.tool_calls, untagged);
  }
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return null;
  const calls: CallFields[] = [];
  for (const item of items) {
    const call = callFromObject(item, untagged);
    if (call === null || typeof call === "string") return call;
    calls.push(call);
  }
  return calls;
}

function callFromObject(value: unknown, untagged: boolean): CallFields | string | null {
  if (!isRecord(value)) return null;
  // OpenAI-style `{"type": "function", "function": {"name": ..., "arguments": ...}}`.
  const source = isRecord(value.function) ? value.function : value;
  const nameKey = NAME_KEYS.find((key) => typeof source[key] === "string");
  if (nameKey === undefined) return null;
  const argumentKey = ARGUMENT_KEYS.find((key) => Object.hasOwn(source, key));
  if (argumentKey === undefined && untagged && Object.keys(source).length > 1) return null;
  const name = (source[nameKey] as string).trim();
  if (name === "") return `empty tool name in "${nameKey}"; ${SHAPE_HINT}`;
  const raw = argumentKey === undefined ? undefined : source[argumentKey];
  if (raw === undefined || raw === null) return { name, arguments: {}, repairs: [] };
  if (isRecord(raw)) return { name, arguments: raw, repairs: [] };
  if (typeof raw === "string") {
    if (raw.trim() === "") return { name, arguments: {}, repairs: [] };
    const args = readArguments(raw);
    return typeof args === "string" ? args : { name, ...args };
  }
  return `"${argumentKey}" must be a JSON object, got ${jsonType(raw)}; ${SHAPE_HINT}`;
}

/** Arguments written as JSON text: a tag body or a JSON-encoded `"arguments"` string. */
function readArguments(json: string): Pick<CallFields, "arguments" | "repairs"> | string {
  const parsed = parseJsonValues(json);
  if (!parsed.ok) return `${parsed.message}; ${SYNTAX_HINT}`;
  const [value] = parsed.values;
  if (parsed.values.length !== 1 || !isRecord(value)) {
    const got = parsed.values.length === 1 ? jsonType(value) : `${parsed.values.length} values`;
    return `arguments must be one JSON object, got ${got}; ${SHAPE_HINT}`;
  }
  return { arguments: value, repairs: parsed.repairs };
}

/** Drop a Markdown code fence wrapped around a block's JSON. */
function stripCodeFence(body: string): { json: string; fenced: boolean } {
  const match = /^\s*```[\w-]*[ \t]*\n?([\s\S]*?)\s*(?:```\s*)?$/.exec(body);
  return match ? { json: match[1], fenced: true } : { json: body, fenced: false };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function jsonType(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

// ---------------------------------------------------------------------------------------------
// Lenient JSON

type JsonParse =
  | { ok: true; values: unknown[]; repairs: Repair[] }
  | { ok: false; message: string };

/**
 * Parse one or more JSON values, repairing common damage. Valid JSON goes through `JSON.parse`.
 * Otherwise quotes are first read strictly (the first unescaped quote ends a string), then by
 * looking at what follows each quote; the strict reading's error is the one reported, since its
 * positions match what a JSON parser would say.
 */
function parseJsonValues(text: string): JsonParse {
  try {
    return { ok: true, values: [parseJson(text)], repairs: [] };
  } catch {
    // Not valid JSON (or nested too deeply for JSON.parse): read it leniently below.
  }
  // The lenient reader decodes `\u` escapes too: lone surrogates become U+FFFD (see wellFormed).
  const strict = new LenientJsonParser(text, "strict").parse();
  if (strict.ok) return { ...strict, values: strict.values.map(wellFormed) };
  const guessed = new LenientJsonParser(text, "guess").parse();
  return guessed.ok ? { ...guessed, values: guessed.values.map(wellFormed) } : strict;
}

/** Raised inside the lenient parser only; `parse()` turns it into a result. */
class JsonSyntaxError extends Error {}

/** How deep objects and arrays may nest; arguments are shallow, so deeper is garbage. */
const MAX_DEPTH = 100;

const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** For each opening quote, the characters that may close it. */
const CLOSING_QUOTES: Record<string, string> = {
  '"': '"',
  "'": "'",
  "\u201c": '\u201d\u201c"',
  "\u201d": '\u201d\u201c"',
  "\u2018": "\u2019\u2018'",
  "\u2019": "\u2019\u2018'",
};

const WORDS = new Map<string, { value: unknown; repair?: Repair }>([
  ["true", { value: true }],
  ["false", { value: false }],
  ["null", { value: null }],
  ["True", { value: true, repair: "python_literals" }],
  ["False", { value: false, repair: "python_literals" }],
  ["None", { value: null, repair: "python_literals" }],
]);

/** Where a string sits, which decides what may follow its closing quote. */
type StringRole = "key" | "object_value" | "array_value" | "top";

/**
 * A recursive-descent JSON reader that undoes common model damage and records each repair.
 * In "guess" mode a quote ends a string only if what follows fits the string's place (a key is
 * followed by `:`, a value by `,` and the next key, or by the closing brace), so unescaped quotes
 * in a diff stay inside it.
 */
class LenientJsonParser {
  #pos = 0;
  readonly #repairs = new Set<Repair>();
  readonly #text: string;
  readonly #quotes: "strict" | "guess";

  constructor(text: string, quotes: "strict" | "guess") {
    this.#text = text;
    this.#quotes = quotes;
  }

  parse(): JsonParse {
    try {
      const values = this.#values();
      return { ok: true, values, repairs: [...this.#repairs] };
    } catch (error) {
      if (error instanceof JsonSyntaxError) return { ok: false, message: error.message };
      throw error;
    }
  }

  /** One or more values (two calls in one block), optionally comma-separated; stray closers dropped. */
  #values(): unknown[] {
    const values: unknown[] = [];
    this.#skipWhitespace();
    while (this.#pos < this.#text.length) {
      const char = this.#text[this.#pos];
      if (values.length > 0 && (char === "}" || char === "]")) {
        this.#repairs.add("extra_brace");
        this.#pos++;
      } else if (values.length > 0 && char === ",") {
        this.#pos++;
      } else {
        values.push(this.#value("top", ""));
      }
      this.#skipWhitespace();
    }
    if (values.length === 0) this.#fail();
    return values;
  }

  /** `stack` holds the open containers, outermost first, e.g. `{[{`. */
  #value(role: StringRole, stack: string): unknown {
    this.#skipWhitespace();
    const char = this.#text[this.#pos];
    if (char === "{") return this.#object(`${stack}{`);
    if (char === "[") return this.#array(`${stack}[`);
    if (char !== undefined && Object.hasOwn(CLOSING_QUOTES, char)) return this.#string(role);
    if (char === "-" || (char >= "0" && char <= "9")) return this.#number();
    return this.#word();
  }

  #object(stack: string): Record<string, unknown> {
    this.#checkDepth(stack);
    this.#pos++;
    // Object.fromEntries defines own properties, so a "__proto__" key stays a plain key.
    const entries: [string, unknown][] = [];
    this.#skipWhitespace();
    if (this.#text[this.#pos] === "}") {
      this.#pos++;
      return {};
    }
    while (true) {
      this.#skipWhitespace();
      const next = this.#text[this.#pos];
      if (next === undefined) return this.#missingBrace(Object.fromEntries(entries));
      if (next === "}") {
        this.#repairs.add("trailing_comma");
        this.#pos++;
        return Object.fromEntries(entries);
      }
      const key = this.#key();
      this.#skipWhitespace();
      if (this.#text[this.#pos] !== ":") this.#fail();
      this.#pos++;
      entries.push([key, this.#value("object_value", stack)]);
      this.#skipWhitespace();
      const after = this.#text[this.#pos];
      if (after === ",") {
        this.#pos++;
        continue;
      }
      if (after === "}") {
        this.#pos++;
        return Object.fromEntries(entries);
      }
      if (after === undefined || (after === "]" && stack.slice(0, -1).includes("["))) {
        return this.#missingBrace(Object.fromEntries(entries));
      }
      this.#fail();
    }
  }

  #array(stack: string): unknown[] {
    this.#checkDepth(stack);
    this.#pos++;
    const items: unknown[] = [];
    this.#skipWhitespace();
    if (this.#text[this.#pos] === "]") {
      this.#pos++;
      return items;
    }
    while (true) {
      this.#skipWhitespace();
      const next = this.#text[this.#pos];
      if (next === undefined) return this.#missingBrace(items);
      if (next === "]") {
        this.#repairs.add("trailing_comma");
        this.#pos++;
        return items;
      }
      items.push(this.#value("array_value", stack));
      this.#skipWhitespace();
      const after = this.#text[this.#pos];
      if (after === ",") {
        this.#pos++;
        continue;
      }
      if (after === "]") {
        this.#pos++;
        return items;
      }
      if (after === undefined || (after === "}" && stack.slice(0, -1).includes("{"))) {
        return this.#missingBrace(items);
      }
      this.#fail();
    }
  }

  /** The closer is missing at the end of input, or the next closer belongs to an outer container. */
  #missingBrace<T>(value: T): T {
    this.#repairs.add("missing_brace");
    return value;
  }

  #checkDepth(stack: string): void {
    if (stack.length > MAX_DEPTH) {
      throw new JsonSyntaxError(`Nesting deeper than ${MAX_DEPTH} levels at position ${this.#pos}`);
    }
  }

  #key(): string {
    const char = this.#text[this.#pos];
    if (char !== undefined && Object.hasOwn(CLOSING_QUOTES, char)) return this.#string("key");
    const identifier = /[A-Za-z_$][\w$-]*/y;
    identifier.lastIndex = this.#pos;
    const match = identifier.exec(this.#text);
    if (!match) this.#fail();
    this.#repairs.add("unquoted_key");
    this.#pos += match[0].length;
    return match[0];
  }

  #string(role: StringRole): string {
    const start = this.#pos;
    const open = this.#text[start];
    const closers = CLOSING_QUOTES[open];
    if (open === "'") this.#repairs.add("single_quotes");
    else if (open !== '"') this.#repairs.add("smart_quotes");
    this.#pos++;
    let out = "";
    while (true) {
      const char = this.#text[this.#pos];
      if (char === undefined) {
        throw new JsonSyntaxError(`Unterminated string starting at position ${start}`);
      }
      if (char === "\\") {
        out += this.#escape(open, start);
        continue;
      }
      if (closers.includes(char)) {
        if (this.#quotes === "strict" || this.#endsString(this.#pos + 1, role)) {
          this.#pos++;
          return out;
        }
        this.#repairs.add("unescaped_quote");
      } else if (char === "\n" || char === "\r") {
        this.#repairs.add("literal_newline");
      } else if (char === "\t") {
        this.#repairs.add("literal_tab");
      } else if (char < " ") {
        this.#repairs.add("control_character");
      }
      out += char;
      this.#pos++;
    }
  }

  #escape(open: string, start: number): string {
    const next = this.#text[this.#pos + 1];
    if (next === undefined) {
      throw new JsonSyntaxError(`Unterminated string starting at position ${start}`);
    }
    if (Object.hasOwn(ESCAPES, next)) {
      this.#pos += 2;
      return ESCAPES[next];
    }
    const hex = this.#text.slice(this.#pos + 2, this.#pos + 6);
    if (next === "u" && /^[0-9a-fA-F]{4}$/.test(hex)) {
      this.#pos += 6;
      return String.fromCharCode(parseInt(hex, 16));
    }
    if (next === "'") {
      if (open !== "'") this.#repairs.add("invalid_escape");
      this.#pos += 2;
      return "'";
    }
    // `"\d+"` in a search pattern: the model meant the backslash itself.
    this.#repairs.add("invalid_escape");
    this.#pos++;
    return "\\";
  }

  /** Whether a quote just before `at` can end a string in this role, judged by what follows. */
  #endsString(at: number, role: StringRole): boolean {
    const index = this.#skipWhitespaceFrom(at);
    const next = this.#text[index];
    if (next === undefined || role === "top") return true;
    if (role === "key") return next === ":";
    // `}` may also close an array: writing `}` for `]` is a common slip.
    if (next === "}" || (next === "]" && role === "array_value")) {
      return this.#endsContainer(index + 1);
    }
    if (role === "array_value") return next === "," && this.#startsArrayItem(index + 1);
    if (next === ",") {
      const following = this.#skipWhitespaceFrom(index + 1);
      return this.#text[following] === undefined || this.#text[following] === "}" ||
        this.#startsKey(following);
    }
    // A missing comma before the next key: end here and let the parser report the comma.
    return this.#startsKey(index);
  }

  /** Whether what follows a closing brace fits: the end, another closer, or a comma and more. */
  #endsContainer(at: number): boolean {
    const index = this.#skipWhitespaceFrom(at);
    const next = this.#text[index];
    if (next === undefined || next === "}" || next === "]") return true;
    if (next !== ",") return false;
    const following = this.#skipWhitespaceFrom(index + 1);
    return this.#text[following] === "{" || this.#text[following] === "[" ||
      this.#startsKey(following);
  }

  /** Whether `"key":`, `'key':` or `key:` starts at `index`. */
  #startsKey(index: number): boolean {
    const char = this.#text[index];
    if (char !== undefined && Object.hasOwn(CLOSING_QUOTES, char)) {
      const closers = CLOSING_QUOTES[char];
      for (let i = index + 1; i < this.#text.length && this.#text[i] !== "\n"; i++) {
        if (this.#text[i] === "\\") i++;
        else if (closers.includes(this.#text[i])) {
          return this.#text[this.#skipWhitespaceFrom(i + 1)] === ":";
        }
      }
      return false;
    }
    const identifier = /[A-Za-z_$][\w$-]*\s*:/y;
    identifier.lastIndex = index;
    return identifier.test(this.#text);
  }

  #startsArrayItem(index: number): boolean {
    const char = this.#text[this.#skipWhitespaceFrom(index)];
    return char === undefined || /[\]"'“”‘’\-\d{[tfnTFN]/.test(char);
  }

  #number(): number {
    const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    number.lastIndex = this.#pos;
    const match = number.exec(this.#text);
    if (!match) this.#fail();
    this.#pos += match[0].length;
    return Number(match[0]);
  }

  #word(): unknown {
    const word = /[A-Za-z_]\w*/y;
    word.lastIndex = this.#pos;
    const match = word.exec(this.#text);
    const known = match ? WORDS.get(match[0]) : undefined;
    if (!match || !known) this.#fail();
    if (known.repair) this.#repairs.add(known.repair);
    this.#pos += match[0].length;
    return known.value;
  }

  #skipWhitespace(): void {
    this.#pos = this.#skipWhitespaceFrom(this.#pos);
  }

  #skipWhitespaceFrom(index: number): number {
    let i = index;
    while (i < this.#text.length && /\s/.test(this.#text[i])) i++;
    return i;
  }

  #fail(): never {
    const char = this.#text.codePointAt(this.#pos);
    throw new JsonSyntaxError(
      char === undefined
        ? `Unexpected end of input at position ${this.#pos}`
        : `Unexpected token ${JSON.stringify(String.fromCodePoint(char))} at position ${this.#pos}`,
    );
  }
}
