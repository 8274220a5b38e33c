/** Conversions between units of length, mass and volume, via each dimension's base unit. */
import { type RoundingMode, roundTo } from "./rounding.ts";

type Dimension = "length" | "mass" | "volume";

/** Each unit's size in its dimension's base unit (metre, kilogram, litre). */
const UNITS: Record<string, { dimension: Dimension; toBase: number }> = {
  mm: { dimension: "length", toBase: 0.001 },
  cm: { dimension: "length", toBase: 0.01 },
  m: { dimension: "length", toBase: 1 },
  km: { dimension: "length", toBase: 1000 },
  in: { dimension: "length", toBase: 0.0254 },
  ft: { dimension: "length", toBase: 0.3048 },
  mi: { dimension: "length", toBase: 1609.344 },
  g: { dimension: "mass", toBase: 0.001 },
  kg: { dimension: "mass", toBase: 1 },
  lb: { dimension: "mass", toBase: 0.45359237 },
  oz: { dimension: "mass", toBase: 0.028349523125 },
  ml: { dimension: "volume", toBase: 0.001 },
  l: { dimension: "volume", toBase: 1 },
  gal: { dimension: "volume", toBase: 3.785411784 },
};

/** Thrown for unknown units or conversions across dimensions. */
export class UnitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnitError";
  }
}

function unit(name: string) {
  const u = UNITS[name];
  if (!u) throw new UnitError(`unknown unit "${name}"`);
  return u;
}

/** Converts `value` between units of the same dimension, optionally rounding the result. */
export function convertUnit(
  value: number,
  from: string,
  to: string,
  round?: { digits: number; mode?: RoundingMode },
): number {
  const a = unit(from);
  const b = unit(to);
  if (a.dimension !== b.dimension) throw new UnitError(`cannot convert ${a.dimension} to ${b.dimension}`);
  const result = (value * a.toBase) / b.toBase;
  return round ? roundTo(result, round.digits, round.mode) : result;
}
