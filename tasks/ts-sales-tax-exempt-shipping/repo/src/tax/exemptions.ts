/** Category exemptions. */
import type { Jurisdiction } from "../jurisdictions/types.ts";

/** True when `category` is exempt in `jurisdiction` (see the README on hierarchy). */
export function isExempt(jurisdiction: Jurisdiction, category: string): boolean {
  return jurisdiction.exemptCategories.some((exempt) => category === exempt);
}
