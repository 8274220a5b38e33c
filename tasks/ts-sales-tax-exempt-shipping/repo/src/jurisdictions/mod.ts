export { JURISDICTIONS } from "./data.ts";
export { JurisdictionRegistry, UnknownJurisdictionError } from "./registry.ts";
export type { Address, Jurisdiction } from "./types.ts";
