export { calculateTax, type LineTax, type TaxResult } from "./calculator.ts";
export { isExempt } from "./exemptions.ts";
export { shippingTax, type TaxPart } from "./shipping.ts";
