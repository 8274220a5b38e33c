/** Plain-array vectors. */
export type Vector = readonly number[];

export class DimensionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DimensionError";
  }
}

function sameLength(a: Vector, b: Vector, op: string): void {
  if (a.length !== b.length) throw new DimensionError(`${op}: lengths ${a.length} and ${b.length} differ`);
}

export function add(a: Vector, b: Vector): number[] {
  sameLength(a, b, "add");
  return a.map((x, i) => x + b[i]);
}

export function sub(a: Vector, b: Vector): number[] {
  sameLength(a, b, "sub");
  return a.map((x, i) => x - b[i]);
}

export function scale(a: Vector, k: number): number[] {
  return a.map((x) => x * k);
}

export function dot(a: Vector, b: Vector): number {
  sameLength(a, b, "dot");
  return a.reduce((sum, x, i) => sum + x * b[i], 0);
}

export function norm(a: Vector): number {
  return Math.sqrt(dot(a, a));
}

/** The unit vector in the direction of `a`; the zero vector has none. */
export function normalize(a: Vector): number[] {
  const n = norm(a);
  if (n === 0) throw new DimensionError("normalize: zero vector");
  return scale(a, 1 / n);
}
