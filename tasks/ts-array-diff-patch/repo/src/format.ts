/** Plain-text rendering of diff operations. */
import { DiffOp } from "./diff.ts";

const PREFIX = { equal: "  ", delete: "- ", insert: "+ " } as const;

/** One line per item: "  kept", "- removed", "+ added". */
export function formatDiff<T>(ops: DiffOp<T>[], show: (item: T) => string = String): string {
  return ops.flatMap((op) => op.items.map((item) => PREFIX[op.type] + show(item))).join("\n");
}
