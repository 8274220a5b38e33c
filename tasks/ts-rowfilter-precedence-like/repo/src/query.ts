/**
 * A small query builder over arrays: `from(rows).where("...").orderBy("age", "desc").limit(5).rows()`.
 */
import type { Expr } from "./ast.ts";
import { evaluate, type Row } from "./evaluate.ts";
import { parseFilter } from "./parser.ts";

/** Immutable query over an array of rows. */
export class Query<T extends Row> {
  constructor(
    readonly source: readonly T[],
    readonly filters: Expr[] = [],
    readonly order: { field: string; direction: "asc" | "desc" }[] = [],
    readonly max: number = Infinity,
  ) {}

  /** Adds a filter (ANDed with earlier ones). */
  where(filter: string): Query<T> {
    return new Query(this.source, [...this.filters, parseFilter(filter)], this.order, this.max);
  }

  /** Adds a sort key; earlier keys take precedence. Missing values sort last. */
  orderBy(field: string, direction: "asc" | "desc" = "asc"): Query<T> {
    return new Query(this.source, this.filters, [...this.order, { field, direction }], this.max);
  }

  /** Keeps at most `n` rows. */
  limit(n: number): Query<T> {
    return new Query(this.source, this.filters, this.order, n);
  }

  /** Runs the query. */
  rows(): T[] {
    const kept = this.source.filter((row) => this.filters.every((f) => evaluate(f, row) === true));
    const sorted = kept.map((row, index) => ({ row, index })).sort((a, b) => {
      for (const { field, direction } of this.order) {
        const x = a.row[field], y = b.row[field];
        if (x === y) continue;
        if (x === undefined || x === null) return 1;
        if (y === undefined || y === null) return -1;
        const sign = (x as number) < (y as number) ? -1 : 1;
        return direction === "asc" ? sign : -sign;
      }
      return a.index - b.index;
    });
    return sorted.slice(0, this.max).map((entry) => entry.row);
  }
}

/** Starts a query. */
export function from<T extends Row>(rows: readonly T[]): Query<T> {
  return new Query(rows);
}

/** Rows matching `filter`, in their original order. */
export function where<T extends Row>(rows: readonly T[], filter: string): T[] {
  return from(rows).where(filter).rows();
}
