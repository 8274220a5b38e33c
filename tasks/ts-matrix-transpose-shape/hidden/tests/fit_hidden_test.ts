import assert from "node:assert/strict";
import { fitLine, fitPolynomial, Matrix } from "../src/mod.ts";

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

Deno.test("transpose swaps the shape", () => {
  const t = Matrix.fromRows([[1, 2, 3], [4, 5, 6]]).transpose();
  assert.deepEqual([t.rows, t.cols], [3, 2]);
});

Deno.test("transpose of a wide matrix", () => {
  assert.deepEqual(Matrix.fromRows([[1, 2, 3], [4, 5, 6]]).transpose().toRows(), [[1, 4], [2, 5], [3, 6]]);
});

Deno.test("transpose of a column", () => {
  assert.deepEqual(Matrix.column([7, 8, 9]).transpose().toRows(), [[7, 8, 9]]);
});

Deno.test("gram matrix of a tall matrix", () => {
  const a = Matrix.fromRows([[1, 2], [3, 4], [5, 6]]);
  assert.deepEqual(a.transpose().multiply(a).toRows(), [[35, 44], [44, 56]]);
});

Deno.test("fitLine through exact points", () => {
  const { intercept, slope } = fitLine([0, 1, 2, 3], [1, 3, 5, 7]);
  assert.deepEqual([r6(intercept), r6(slope)], [1, 2]);
});

Deno.test("fitLine on noisy weekly signups", () => {
  const { intercept, slope } = fitLine([1, 2, 3, 4, 5], [12, 15, 21, 22, 30]);
  assert.deepEqual([r6(intercept), r6(slope)], [7.1, 4.3]);
});

Deno.test("fitPolynomial recovers a parabola", () => {
  const xs = [-2, -1, 0, 1, 2, 3];
  const coefficients = fitPolynomial(xs, xs.map((x) => 2 - x + 0.5 * x * x), 2);
  assert.deepEqual(coefficients.map(r6), [2, -1, 0.5]);
});

Deno.test("transpose twice is the identity on squares", () => {
  const m = Matrix.fromRows([[1, 2], [3, 4]]);
  assert.ok(m.transpose().transpose().equals(m));
});
