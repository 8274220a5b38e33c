export * from "./linalg/mod.ts";
export * from "./geometry/transform.ts";
export { mean, variance } from "./stats/describe.ts";
export { evaluatePolynomial, fitLine, fitPolynomial } from "./stats/regression.ts";
