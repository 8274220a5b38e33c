/** A taxing jurisdiction. */
export interface Jurisdiction {
  /** Unique code, e.g. "NS", "NS-LAKE", "NS-LAKE-SPRINGFIELD". */
  code: string;
  name: string;
  level: "state" | "county" | "city";
  /** Rate in basis points (625 = 6.25%). */
  rate: number;
  /** Exempt categories; each exempts itself and every category below it. */
  exemptCategories: string[];
  /** Whether the jurisdiction taxes shipping charges. */
  taxesShipping: boolean;
}

/** Where an order ships; county and city are optional. */
export interface Address {
  state: string;
  county?: string;
  city?: string;
}
