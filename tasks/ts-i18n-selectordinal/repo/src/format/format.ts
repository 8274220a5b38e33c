/**
 * Formatting a parsed message with values.
 */
import type { Branches, Message } from "./ast.ts";
import { cardinalCategory } from "../plurals/mod.ts";

/** Values a message may reference. */
export type Values = Record<string, string | number>;

/** Thrown when a message references a value that was not given. */
export class MissingValueError extends Error {
  constructor(readonly argument: string) {
    super(`no value for {${argument}}`);
    this.name = "MissingValueError";
  }
}

/** Formats `message` for `locale`. Numbers are formatted with `Intl.NumberFormat`. */
export function formatMessage(message: Message, values: Values, locale: string): string {
  const numbers = new Intl.NumberFormat(locale);
  const render = (parts: Message, count: number | undefined): string =>
    parts.map((part) => {
      switch (part.type) {
        case "text":
          return part.value;
        case "pound":
          return count === undefined ? "#" : numbers.format(count);
        case "arg": {
          const value = lookup(values, part.name);
          return typeof value === "number" ? numbers.format(value) : value;
        }
        case "plural": {
          const n = Number(lookup(values, part.name));
          return render(pluralBranch(part.branches, n, cardinalCategory(locale, n)), n);
        }
        case "select": {
          const key = String(lookup(values, part.name));
          return render(part.branches[key] ?? part.branches.other, count);
        }
      }
    }).join("");
  return render(message, undefined);
}

/** `=N` exact matches win over the category; `other` is the fallback. */
function pluralBranch(branches: Branches, n: number, category: string): Message {
  return branches[`=${n}`] ?? branches[category] ?? branches.other;
}

function lookup(values: Values, name: string): string | number {
  if (!(name in values)) throw new MissingValueError(name);
  return values[name];
}
