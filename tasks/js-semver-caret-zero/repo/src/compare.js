import { parseVersion, Version } from "./version.js";

function toVersion(value) {
  return value instanceof Version ? value : parseVersion(value);
}

function compareIdentifiers(a, b) {
  const numeric = typeof a === "number";
  if (numeric !== (typeof b === "number")) return numeric ? -1 : 1;
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** -1, 0 or 1 as `a` sorts before, equal to, or after `b` (build metadata is ignored). */
export function compare(a, b) {
  const x = toVersion(a);
  const y = toVersion(b);
  for (const key of ["major", "minor", "patch"]) {
    if (x[key] !== y[key]) return x[key] < y[key] ? -1 : 1;
  }
  if (x.prerelease.length === 0 || y.prerelease.length === 0) {
    return y.prerelease.length - x.prerelease.length === 0
      ? 0
      : x.prerelease.length === 0 ? 1 : -1;
  }
  const length = Math.max(x.prerelease.length, y.prerelease.length);
  for (let i = 0; i < length; i++) {
    if (x.prerelease[i] === undefined) return -1;
    if (y.prerelease[i] === undefined) return 1;
    const order = compareIdentifiers(x.prerelease[i], y.prerelease[i]);
    if (order !== 0) return order;
  }
  return 0;
}

export const lt = (a, b) => compare(a, b) < 0;
export const lte = (a, b) => compare(a, b) <= 0;
export const gt = (a, b) => compare(a, b) > 0;
export const gte = (a, b) => compare(a, b) >= 0;
export const eq = (a, b) => compare(a, b) === 0;
