/** Public API of flagship. */
export { FlagDefinitionError, FlagStore } from "./store.ts";
export { evaluate, type Evaluation, type Reason } from "./evaluate/evaluator.ts";
export { inRollout, pickVariant } from "./evaluate/rollout.ts";
export { bucketFor, fnv1a32 } from "./hash/mod.ts";
export type * from "./rules/types.ts";
