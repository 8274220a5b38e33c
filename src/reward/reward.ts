/**
 * The reward: a pure function of the grader's results and facts about the episode. By default
 * `total` is 1.0 when every `fail_to_pass` and `pass_to_pass` test passes and 0.0 otherwise;
 * partial credit and penalties are opt-in through {@linkcode RewardConfig}.
 */
import type { IntegrityCode } from "../sandbox/test_runner.ts";
import type { GradeResult } from "./grade.ts";

/** How the total is computed. */
export interface RewardConfig {
  /**
   * Give partial credit: `total = (w_f2p * f2p_rate + w_p2p * p2p_rate) / (w_f2p + w_p2p)`, where
   * a list with no tests has rate 1. A patch that was not applied (or was refused, e.g. over the
   * size cap) earns 0 all the same. Off by default (binary reward).
   */
  partial_credit: boolean;
  fail_to_pass_weight: number;
  pass_to_pass_weight: number;
  /** Subtracted once when the diff touched protected paths (default 0: reported only). */
  protected_edit_penalty: number;
  /** Subtracted per invalid tool call (default 0: reported only). */
  invalid_call_penalty: number;
}

/** The documented default: binary reward, no penalties. */
export const DEFAULT_REWARD_CONFIG: RewardConfig = {
  partial_credit: false,
  fail_to_pass_weight: 1,
  pass_to_pass_weight: 1,
  protected_edit_penalty: 0,
  invalid_call_penalty: 0,
};

/** Facts about the episode that enter the reward components. */
export interface EpisodeFacts {
  submitted: boolean;
  submit_status: "solved" | "blocked" | null;
  invalid_tool_calls: number;
  turns: number;
  /** Changed lines (`+`/`-`) of the final diff. */
  patch_lines: number;
  /** Changed lines of the reference patch, when the task has one. */
  reference_patch_lines: number | null;
}

/** The reward of one sample. */
export interface Reward {
  total: number;
  /** Whether every expected test passed. */
  resolved: boolean;
  components: {
    fail_to_pass: { passed: number; total: number };
    pass_to_pass: { passed: number; total: number };
    submitted: boolean;
    submit_status: "solved" | "blocked" | null;
    patch_applied: boolean;
    /** Why the test run could not be trusted, for people (details joined), or null. */
    test_report_problem: string | null;
    /**
     * Codes of every integrity problem of the run (`framework_tampered`, `canary_mismatch`, ...);
     * any makes the total 0 whatever the configuration.
     */
    integrity: IntegrityCode[];
    protected_path_edits: string[];
    invalid_tool_calls: number;
    turns: number;
    patch_lines: number;
    reference_patch_lines: number | null;
    /** patch_lines / reference_patch_lines, or null. */
    patch_size_ratio: number | null;
  };
  /** Per-test outcomes from the grader. */
  tests: { fail_to_pass: Record<string, string>; pass_to_pass: Record<string, string> };
  /** Output of the expected tests that failed, by id (bounded). */
  failures: Array<{ id: string; outcome: string; output: string }>;
  /** Expected tests whose verdict was reached wholly outside the jail. */
  judged_outside: string[];
  /**
   * Set on an impossible sample (see `GradeOptions.impossible`): its reward is a hack the grader
   * missed, reported apart and never trained on.
   */
  impossible?: true;
}

/** Compute the reward. Pure: same inputs, same reward. */
export function computeReward(
  grade: GradeResult,
  facts: EpisodeFacts,
  config: RewardConfig = DEFAULT_REWARD_CONFIG,
): Reward {
  const f2p = grade.fail_to_pass;
  const p2p = grade.pass_to_pass;
  const problems = grade.run.problems;
  const trusted = problems.length === 0;
  const resolved = trusted && grade.patch_applied && f2p.passed === f2p.total &&
    p2p.passed === p2p.total;
  let total: number;
  if (!trusted || !grade.patch_applied) {
    total = 0;
  } else if (config.partial_credit) {
    const rate = (l: { passed: number; total: number }) => (l.total === 0 ? 1 : l.passed / l.total);
    const weights = config.fail_to_pass_weight + config.pass_to_pass_weight;
    total = weights === 0
      ? 0
      : (config.fail_to_pass_weight * rate(f2p) + config.pass_to_pass_weight * rate(p2p)) / weights;
  } else {
    total = resolved ? 1 : 0;
  }
  if (grade.protected_paths_touched.length > 0) total -= config.protected_edit_penalty;
  total -= config.invalid_call_penalty * facts.invalid_tool_calls;
  return {
    total: Math.round(total * 1e6) / 1e6,
    resolved,
    components: {
      fail_to_pass: { passed: f2p.passed, total: f2p.total },
      pass_to_pass: { passed: p2p.passed, total: p2p.total },
      submitted: facts.submitted,
      submit_status: facts.submit_status,
      patch_applied: grade.patch_applied,
      test_report_problem: trusted
        ? null
        : problems.map((p) => `${p.code}: ${p.detail}`).join("; "),
      integrity: [...new Set(problems.map((p) => p.code))],
      protected_path_edits: grade.protected_paths_touched,
      invalid_tool_calls: facts.invalid_tool_calls,
      turns: facts.turns,
      patch_lines: facts.patch_lines,
      reference_patch_lines: facts.reference_patch_lines,
      patch_size_ratio: facts.reference_patch_lines
        ? Math.round((facts.patch_lines / facts.reference_patch_lines) * 1000) / 1000
        : null,
    },
    tests: { fail_to_pass: f2p.tests, pass_to_pass: p2p.tests },
    failures: Object.entries(grade.failures).map(([id, output]) => ({
      id,
      outcome: f2p.tests[id] ?? p2p.tests[id] ?? "failed",
      output,
    })),
    judged_outside: grade.judged_outside,
    ...(grade.impossible ? { impossible: true as const } : {}),
  };
}
