/** Values a .conf file can hold. */
export type ConfValue = string | number | boolean | ConfValue[] | ConfBlock;

/** A block (or the whole file): keys in source order. */
export interface ConfBlock {
  [key: string]: ConfValue;
}

export function isBlock(value: ConfValue | undefined): value is ConfBlock {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
