/**
 * Array diff as a list of grouped operations.
 *
 * diff(["a", "b", "c"], ["a", "x", "c"]) ->
 *   [{ type: "equal", items: ["a"] }, { type: "delete", items: ["b"] },
 *    { type: "insert", items: ["x"] }, { type: "equal", items: ["c"] }]
 *
 * Consecutive items of the same type are merged into one op, and within a
 * run of changes the delete op always comes before the insert op.
 */
import { defaultEq, Eq, lcsTable } from "./lcs.ts";

export type OpType = "equal" | "delete" | "insert";

export interface DiffOp<T> {
  type: OpType;
  items: T[];
}

function push<T>(ops: DiffOp<T>[], type: OpType, item: T): void {
  const last = ops[ops.length - 1];
  if (last && last.type === type) last.items.push(item);
  else ops.push({ type, items: [item] });
}

export function diff<T>(a: readonly T[], b: readonly T[], eq: Eq<T> = defaultEq): DiffOp<T>[] {
  const table = lcsTable(a, b, eq);
  const ops: DiffOp<T>[] = [];
  let deleted: T[] = [];
  let inserted: T[] = [];
  const flush = () => {
    for (const item of deleted) push(ops, "delete", item);
    for (const item of inserted) push(ops, "insert", item);
    deleted = [];
    inserted = [];
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && eq(a[i], b[j])) {
      flush();
      push(ops, "equal", a[i]);
      i++;
      j++;
    } else if (j >= b.length || (i < a.length && table[i + 1][j] >= table[i][j + 1])) {
      deleted.push(a[i++]);
    } else {
      inserted.push(b[j++]);
    }
  }
  flush();
  return ops;
}

/** 2 * |LCS| / (|a| + |b|); 1 for two empty arrays. */
export function similarity<T>(a: readonly T[], b: readonly T[], eq: Eq<T> = defaultEq): number {
  if (a.length + b.length === 0) return 1;
  return (2 * lcsTable(a, b, eq)[0][0]) / (a.length + b.length);
}
