/** Test helpers shared by the run tests: a run configuration of the reference policy. */
import { newRunId, RUN_FORMAT, type RunConfig } from "../../src/rollout/run_config.ts";

/** A `run.json` for `samples` reference-policy samples of each of `tasks`. */
export function referenceConfig(tasks: string[], samples = 1): RunConfig {
  return {
    format: RUN_FORMAT,
    run_id: newRunId(),
    env_version: "test",
    tasks,
    samples,
    policy: {
      kind: "reference",
      base_url: null,
      model: null,
      script: null,
      text_tool_calls: false,
      sampling: {},
      seed: null,
    },
    limits: { max_tokens_per_turn: 100, max_total_tokens: 10_000, max_wall_s: 120 },
    training: { trainable: "all", onDrift: "split" },
  };
}
