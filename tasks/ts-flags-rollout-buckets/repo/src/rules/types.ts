/** Shapes of flag definitions and evaluation contexts. */

/** Attribute values a context may carry. */
export type AttributeValue = string | number | boolean;

/** Who a flag is evaluated for. `key` identifies the user for bucketing. */
export interface Context {
  key: string;
  attributes?: Record<string, AttributeValue>;
}

/** A condition on one attribute. */
export type Condition =
  | { attribute: string; op: "eq"; value: AttributeValue }
  | { attribute: string; op: "in"; values: AttributeValue[] }
  | { attribute: string; op: "startsWith"; value: string }
  | { attribute: string; op: "gt" | "lt"; value: number }
  | { segment: string; op: "inSegment" };

/** A weighted variant of a rollout; weights are percentages summing to 100. */
export interface WeightedVariant {
  variant: string;
  weight: number;
}

/** What a rule serves: a fixed variant, or a percentage rollout among variants. */
export type Serve =
  | { variant: string }
  | { rollout: WeightedVariant[] };

/** A targeting rule: every condition must hold. */
export interface Rule {
  id: string;
  conditions: Condition[];
  serve: Serve;
}

/** A named set of users, by key or by conditions. */
export interface Segment {
  key: string;
  included?: string[];
  excluded?: string[];
  conditions?: Condition[];
}

/** A feature flag. `variants` maps variant names to the values callers receive. */
export interface Flag {
  key: string;
  enabled: boolean;
  salt: string;
  variants: Record<string, unknown>;
  /** Served when the flag is disabled. */
  offVariant: string;
  rules: Rule[];
  /** Served when no rule matches. */
  fallthrough: Serve;
}
