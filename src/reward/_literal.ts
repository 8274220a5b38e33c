/**
 * Reading assertion statements as text: top-level splitting, literal values, comments and where
 * Python statements start. Shared by the strict comparisons and the separation of checks.
 */

/** Split at top-level separators (outside brackets and strings); null if unbalanced. */
export function splitTopLevel(text: string, separator: string): string[] | null {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") quote = c;
    else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) depth--;
    else if (depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(last, i));
      last = i + separator.length;
      i += separator.length - 1;
    }
    if (depth < 0) return null;
  }
  if (depth !== 0 || quote) return null;
  parts.push(text.slice(last));
  return parts;
}

/** `text` with its string literals emptied (each becomes `""`). */
export function withoutStrings(text: string): string {
  return text.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '""');
}

/**
 * Whether `text` is a literal value: numbers, strings, the words for true, false and nothing, and
 * brackets, commas, colons and signs around them (`[1, "a"]`, `{"k": None}`, `-2.5`), no names,
 * calls or templates. In Python a string may carry a `b` prefix.
 */
export function isLiteral(text: string, python: boolean): boolean {
  if (text.trim() === "" || /[`]/.test(text)) return false;
  const stripped = withoutStrings(text);
  const bare = python ? stripped.replace(/(?<![\w"'])b(?="")/g, "") : stripped;
  const words = python ? /^(True|False|None)$/ : /^(true|false|null|undefined)$/;
  for (const word of bare.match(/[A-Za-z_]\w*/g) ?? []) {
    if (!words.test(word)) return false;
  }
  return !/[^\s\w.,\-+()[\]{}:"']/.test(bare);
}

/**
 * Python value constructors a built value may call besides class names (capitalized): the
 * standard library's date and time types, plain or through their module (`datetime.date`).
 */
const PYTHON_CONSTRUCTORS = /^(?:datetime\.)?(?:date|datetime|time|timedelta)$/;

/**
 * Whether Python `text` is a *built value*: a literal (see {@linkcode isLiteral}) in which values
 * may also be made by calling a class (a capitalized name, dotted or not: `Decimal("4.50")`,
 * `Ingredient("salt", 1, "tsp")`, `fractions.Fraction(1, 2)`) or a standard date or time type
 * (`date(2025, 1, 31)`) with such values, keyword arguments excluded. Constructors make different
 * values of different arguments, which is what a mutant canary's changed value needs.
 */
export function isBuiltValue(text: string): boolean {
  const stripped = withoutStrings(text);
  let callees = true;
  const bare = stripped.replace(
    /(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*(?=\()/g,
    (_, callee: string) => {
      const last = callee.slice(callee.lastIndexOf(".") + 1);
      if (!/^[A-Z]/.test(last) && !PYTHON_CONSTRUCTORS.test(callee)) callees = false;
      return "";
    },
  );
  return callees && bare !== stripped && isLiteral(bare, true);
}

/** `text` with strings emptied and bracketed parts dropped: its top-level syntax only. */
export function withoutBrackets(text: string): string {
  let out = withoutStrings(text);
  for (let before = ""; before !== out;) {
    before = out;
    out = out.replace(/\([^()[\]{}]*\)|\[[^()[\]{}]*\]|\{[^()[\]{}]*\}/g, "");
  }
  return out;
}

/** A line's code and its trailing comment (with the spaces before it), split outside strings. */
export function splitComment(line: string): { code: string; comment: string } {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#") {
      const code = line.slice(0, i).trimEnd();
      return { code, comment: line.slice(code.length) };
    }
  }
  return { code: line, comment: "" };
}

/**
 * For each line, whether a statement can start on it: it is not inside a bracket or a
 * triple-quoted string opened on an earlier line, nor after a backslash continuation.
 */
export function statementStarts(lines: string[]): boolean[] {
  const starts: boolean[] = [];
  let depth = 0;
  let triple: string | null = null;
  let continued = false;
  for (const line of lines) {
    starts.push(depth === 0 && triple === null && !continued);
    let quote: string | null = null;
    // Every line of every test file, a few times per grade: one character compare before any
    // look-ahead.
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (triple) {
        if (c === "\\") i++;
        else if (c === triple[0] && line.startsWith(triple, i)) {
          i += 2;
          triple = null;
        }
      } else if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = null;
      } else if (c === "#") break;
      else if (c === '"' || c === "'") {
        if (line[i + 1] === c && line[i + 2] === c) {
          triple = c + c + c;
          i += 2;
        } else quote = c;
      } else if (c === "(" || c === "[" || c === "{") depth++;
      else if (c === ")" || c === "]" || c === "}") depth = Math.max(0, depth - 1);
    }
    continued = triple === null && line.endsWith("\\");
  }
  return starts;
}
