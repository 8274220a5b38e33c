import type { Flag } from "../src/rules/types.ts";

/** A boolean flag with a fallthrough percentage rollout of `percent`. */
export function booleanRollout(key: string, percent: number): Flag {
  return {
    key,
    enabled: true,
    salt: key,
    variants: { on: true, off: false },
    offVariant: "off",
    rules: [],
    fallthrough: { rollout: [{ variant: "on", weight: percent }, { variant: "off", weight: 100 - percent }] },
  };
}

export const checkoutFlag: Flag = {
  key: "new-checkout",
  enabled: true,
  salt: "checkout",
  variants: { legacy: "v1", modern: "v2" },
  offVariant: "legacy",
  rules: [
    { id: "staff", conditions: [{ attribute: "email", op: "startsWith", value: "staff+" }], serve: { variant: "modern" } },
    { id: "beta", conditions: [{ segment: "beta-testers", op: "inSegment" }], serve: { variant: "modern" } },
  ],
  fallthrough: { variant: "legacy" },
};
