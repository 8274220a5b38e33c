/**
 * The parsed form of a message, an ICU MessageFormat subset:
 *
 * - `{name}` inserts a value,
 * - `{count, plural, one {# file} other {# files}}` picks a branch by plural category, with `=N`
 *   for exact values and `#` for the (locale-formatted) number,
 * - `{role, select, admin {...} other {...}}` picks a branch by string value.
 */

/** One piece of a message. */
export type Part =
  | { type: "text"; value: string }
  | { type: "arg"; name: string }
  | { type: "pound" }
  | { type: "plural"; name: string; branches: Branches }
  | { type: "select"; name: string; branches: Branches };

/** Branch key (`one`, `=0`, `admin`, ...) to its sub-message. `other` is always present. */
export type Branches = Record<string, Part[]>;

/** A parsed message. */
export type Message = Part[];
