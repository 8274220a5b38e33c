/** Gaussian elimination with partial pivoting. */
import { Matrix } from "./matrix.ts";
import { DimensionError, type Vector } from "./vector.ts";

export class SingularMatrixError extends Error {
  constructor() {
    super("matrix is singular");
    this.name = "SingularMatrixError";
  }
}

const EPSILON = 1e-12;

/** Reduces [a | b] in place to upper-triangular form; returns the determinant's sign flips. */
function eliminate(a: number[][], b: number[][]): number {
  const n = a.length;
  let swaps = 0;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    if (Math.abs(a[pivot][col]) < EPSILON) throw new SingularMatrixError();
    if (pivot !== col) {
      [a[pivot], a[col]] = [a[col], a[pivot]];
      [b[pivot], b[col]] = [b[col], b[pivot]];
      swaps++;
    }
    for (let r = col + 1; r < n; r++) {
      const f = a[r][col] / a[col][col];
      for (let c = col; c < n; c++) a[r][c] -= f * a[col][c];
      for (let c = 0; c < b[r].length; c++) b[r][c] -= f * b[col][c];
    }
  }
  return swaps;
}

function requireSquare(m: Matrix, op: string): void {
  if (m.rows !== m.cols) throw new DimensionError(`${op}: ${m.rows}x${m.cols} is not square`);
}

/** Solves A X = B for X (B may have several columns). */
export function solveMatrix(a: Matrix, b: Matrix): Matrix {
  requireSquare(a, "solve");
  if (b.rows !== a.rows) throw new DimensionError("solve: right-hand side has the wrong number of rows");
  const u = a.toRows();
  const y = b.toRows();
  eliminate(u, y);
  const n = a.rows;
  const x = y.map((row) => row.map(() => 0));
  for (let i = n - 1; i >= 0; i--) {
    for (let c = 0; c < b.cols; c++) {
      let sum = y[i][c];
      for (let k = i + 1; k < n; k++) sum -= u[i][k] * x[k][c];
      x[i][c] = sum / u[i][i];
    }
  }
  return Matrix.fromRows(x);
}

/** Solves A x = b for a vector b. */
export function solve(a: Matrix, b: Vector): number[] {
  return Array.from(solveMatrix(a, Matrix.column(b)).data);
}

export function inverse(a: Matrix): Matrix {
  return solveMatrix(a, Matrix.identity(a.rows));
}

export function determinant(a: Matrix): number {
  requireSquare(a, "determinant");
  const u = a.toRows();
  let swaps: number;
  try {
    swaps = eliminate(u, u.map(() => []));
  } catch (e) {
    if (e instanceof SingularMatrixError) return 0;
    throw e;
  }
  return u.reduce((det, row, i) => det * row[i], swaps % 2 === 0 ? 1 : -1);
}
