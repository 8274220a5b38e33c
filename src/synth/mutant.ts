/**
 * Mutants: small, parse-aware edits that inject a bug into a source file. Each is a byte range of
 * one file and its replacement, found by a language's parser (Python's `ast`, the TypeScript
 * compiler), never by text patterns over the whole file.
 */

/** The mutation operators, a closed set. */
export const MUTATION_OPERATORS = [
  "operator",
  "comparison",
  "off_by_one",
  "invert_condition",
  "drop_statement",
  "swap_arguments",
  "wrong_default",
  "remove_condition",
  "remove_branch",
  "loop_bound",
  "drop_call",
  "swap_names",
  "swap_statements",
] as const;

/** One of {@linkcode MUTATION_OPERATORS}. */
export type MutationOperator = (typeof MUTATION_OPERATORS)[number];

/** One single-point mutation of one file. */
export interface Mutant {
  /** Repository path of the mutated file. */
  file: string;
  /** Byte offsets of the replaced range in the UTF-8 file. */
  start: number;
  end: number;
  replacement: string;
  operator: MutationOperator;
  /** 1-based line of the mutated construct (for reports, never shown to the agent). */
  line: number;
  /** Hash of the mutated file's normalized syntax tree: equal hashes are the same program. */
  hash: string;
}

/** Apply non-overlapping mutants of one file to its content (bytes). */
export function applyMutants(content: Uint8Array, mutants: Mutant[]): Uint8Array {
  const sorted = [...mutants].sort((a, b) => b.start - a.start);
  let out = content;
  let limit = Infinity;
  for (const m of sorted) {
    if (m.end > limit) throw new Error(`Mutants overlap in "${m.file}" at byte ${m.start}`);
    const replacement = new TextEncoder().encode(m.replacement);
    const next = new Uint8Array(out.length - (m.end - m.start) + replacement.length);
    next.set(out.subarray(0, m.start), 0);
    next.set(replacement, m.start);
    next.set(out.subarray(m.end), m.start + replacement.length);
    out = next;
    limit = m.start;
  }
  return out;
}

/** Whether two mutants touch overlapping or adjacent bytes, or the same line of the same file. */
export function mutantsClash(a: Mutant, b: Mutant): boolean {
  return a.file === b.file && (a.line === b.line || (a.start <= b.end && b.start <= a.end));
}
