import assert from "node:assert/strict";
import { determinant, DimensionError, dot, inverse, Matrix, normalize, SingularMatrixError, solve } from "../src/linalg/mod.ts";

Deno.test("vector helpers", () => {
  assert.equal(dot([1, 2, 3], [4, 5, 6]), 32);
  assert.deepEqual(normalize([0, 5]), [0, 1]);
  assert.throws(() => dot([1], [1, 2]), DimensionError);
});

Deno.test("multiply respects shapes", () => {
  const a = Matrix.fromRows([[1, 2, 3], [4, 5, 6]]);
  const b = Matrix.fromRows([[7, 8], [9, 10], [11, 12]]);
  assert.deepEqual(a.multiply(b).toRows(), [[58, 64], [139, 154]]);
  assert.throws(() => a.multiply(a), DimensionError);
});

Deno.test("transpose of a square matrix", () => {
  const m = Matrix.fromRows([[1, 2], [3, 4]]);
  assert.deepEqual(m.transpose().toRows(), [[1, 3], [2, 4]]);
});

Deno.test("solve, inverse and determinant", () => {
  const a = Matrix.fromRows([[2, 1], [1, 3]]);
  assert.deepEqual(solve(a, [3, 5]).map((x) => Math.round(x * 1e9) / 1e9), [0.8, 1.4]);
  assert.ok(a.multiply(inverse(a)).equals(Matrix.identity(2)));
  assert.equal(Math.round(determinant(a) * 1e9) / 1e9, 5);
  assert.equal(determinant(Matrix.fromRows([[1, 2], [2, 4]])), 0);
  assert.throws(() => inverse(Matrix.fromRows([[1, 2], [2, 4]])), SingularMatrixError);
});
