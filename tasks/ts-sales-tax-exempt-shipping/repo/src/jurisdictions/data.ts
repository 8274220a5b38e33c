/** The jurisdictions we currently collect for (from the finance team's 2026 filing table). */
import type { Jurisdiction } from "./types.ts";

export const JURISDICTIONS: Jurisdiction[] = [
  { code: "NS", name: "North State", level: "state", rate: 500, exemptCategories: ["food", "medicine/prescription"], taxesShipping: true },
  { code: "NS-LAKE", name: "Lake County", level: "county", rate: 100, exemptCategories: ["food/grocery"], taxesShipping: false },
  { code: "NS-LAKE-SPRINGFIELD", name: "Springfield", level: "city", rate: 150, exemptCategories: [], taxesShipping: false },
  { code: "SS", name: "South State", level: "state", rate: 600, exemptCategories: ["clothing"], taxesShipping: false },
  { code: "SS-PORT", name: "Port City", level: "city", rate: 200, exemptCategories: ["clothing/children"], taxesShipping: true },
];
