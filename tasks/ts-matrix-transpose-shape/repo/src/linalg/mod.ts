export { Matrix } from "./matrix.ts";
export { determinant, inverse, SingularMatrixError, solve, solveMatrix } from "./solve.ts";
export * from "./vector.ts";
