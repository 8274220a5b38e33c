export * from "./tiers/mod.ts";
export { type MetricRate, RateCard } from "./billing/ratecard.ts";
export { totalsFor, type UsageEvent } from "./billing/usage.ts";
export { buildInvoice, type Invoice, type InvoiceLine } from "./billing/invoice.ts";
