/**
 * Least-squares fits via the normal equations (X^T X) beta = X^T y, where X is the
 * n x (degree + 1) design matrix [1, x, x^2, ...].
 */
import { Matrix, solve } from "../linalg/mod.ts";

/** Coefficients of the fitted polynomial, constant term first. */
export function fitPolynomial(xs: readonly number[], ys: readonly number[], degree: number): number[] {
  if (xs.length !== ys.length) throw new RangeError("xs and ys differ in length");
  if (xs.length <= degree) throw new RangeError(`need more than ${degree} points`);
  const design = Matrix.fromFunction(xs.length, degree + 1, (i, j) => xs[i] ** j);
  const xt = design.transpose();
  return solve(xt.multiply(design), xt.apply(ys));
}

/** The trend line y = intercept + slope * x. */
export function fitLine(xs: readonly number[], ys: readonly number[]): { intercept: number; slope: number } {
  const [intercept, slope] = fitPolynomial(xs, ys, 1);
  return { intercept, slope };
}

/** Evaluates a polynomial (constant term first) at x. */
export function evaluatePolynomial(coefficients: readonly number[], x: number): number {
  return coefficients.reduceRight((acc, c) => acc * x + c, 0);
}
