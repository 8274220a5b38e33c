/** 2D affine transforms as 3x3 homogeneous matrices. */
import { Matrix } from "../linalg/mod.ts";

export type Point = readonly [number, number];

export const identity2d = (): Matrix => Matrix.identity(3);

export function translate(dx: number, dy: number): Matrix {
  return Matrix.fromRows([[1, 0, dx], [0, 1, dy], [0, 0, 1]]);
}

export function scaling(sx: number, sy = sx): Matrix {
  return Matrix.fromRows([[sx, 0, 0], [0, sy, 0], [0, 0, 1]]);
}

/** Counter-clockwise rotation by `radians` about the origin. */
export function rotate(radians: number): Matrix {
  const c = Math.cos(radians);
  const s = Math.sin(radians);
  return Matrix.fromRows([[c, -s, 0], [s, c, 0], [0, 0, 1]]);
}

/** Composes transforms so that the first argument is applied first. */
export function compose(...transforms: Matrix[]): Matrix {
  return transforms.reduce((acc, t) => t.multiply(acc), identity2d());
}

export function applyTo(transform: Matrix, [x, y]: Point): [number, number] {
  const [px, py] = transform.apply([x, y, 1]);
  return [px, py];
}
