/** Dense row-major matrices. */
import { DimensionError, type Vector } from "./vector.ts";

export class Matrix {
  /** Row-major entries: entry (i, j) is data[i * cols + j]. */
  readonly data: Float64Array;

  constructor(readonly rows: number, readonly cols: number, data?: ArrayLike<number>) {
    if (data && data.length !== rows * cols) {
      throw new DimensionError(`expected ${rows * cols} entries for ${rows}x${cols}, got ${data.length}`);
    }
    this.data = data ? Float64Array.from(data) : new Float64Array(rows * cols);
  }

  /** Builds a matrix from an array of equally long rows. */
  static fromRows(rows: readonly Vector[]): Matrix {
    const cols = rows[0]?.length ?? 0;
    if (rows.some((r) => r.length !== cols)) throw new DimensionError("fromRows: ragged rows");
    return new Matrix(rows.length, cols, rows.flat());
  }

  /** A rows x cols matrix whose (i, j) entry is f(i, j). */
  static fromFunction(rows: number, cols: number, f: (i: number, j: number) => number): Matrix {
    const m = new Matrix(rows, cols);
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) m.data[i * cols + j] = f(i, j);
    }
    return m;
  }

  static identity(n: number): Matrix {
    return Matrix.fromFunction(n, n, (i, j) => (i === j ? 1 : 0));
  }

  /** A single-column matrix holding `v`. */
  static column(v: Vector): Matrix {
    return new Matrix(v.length, 1, v);
  }

  get(i: number, j: number): number {
    return this.data[i * this.cols + j];
  }

  row(i: number): number[] {
    return Array.from(this.data.subarray(i * this.cols, (i + 1) * this.cols));
  }

  toRows(): number[][] {
    return Array.from({ length: this.rows }, (_, i) => this.row(i));
  }

  /** The transpose: entry (i, j) of the result is entry (j, i) of this matrix. */
  transpose(): Matrix {
    return Matrix.fromFunction(this.rows, this.cols, (i, j) => this.get(j, i));
  }

  /** The matrix product this x other. */
  multiply(other: Matrix): Matrix {
    if (this.cols !== other.rows) {
      throw new DimensionError(`cannot multiply ${this.rows}x${this.cols} by ${other.rows}x${other.cols}`);
    }
    return Matrix.fromFunction(this.rows, other.cols, (i, j) => {
      let sum = 0;
      for (let k = 0; k < this.cols; k++) sum += this.get(i, k) * other.get(k, j);
      return sum;
    });
  }

  /** The product with a vector, as a vector. */
  apply(v: Vector): number[] {
    return Array.from(this.multiply(Matrix.column(v)).data);
  }

  add(other: Matrix): Matrix {
    if (this.rows !== other.rows || this.cols !== other.cols) throw new DimensionError("add: shapes differ");
    return Matrix.fromFunction(this.rows, this.cols, (i, j) => this.get(i, j) + other.get(i, j));
  }

  scale(k: number): Matrix {
    return new Matrix(this.rows, this.cols, this.data.map((x) => x * k));
  }

  equals(other: Matrix, epsilon = 1e-9): boolean {
    return this.rows === other.rows && this.cols === other.cols &&
      this.data.every((x, i) => Math.abs(x - other.data[i]) <= epsilon);
  }
}
