/**
 * The reference policy: replays a task's reference patch through the real tools (inspect, read
 * the files it touches, apply the patch, run the tests, submit). It validates tasks end to end
 * and is what `rollout` runs when no model endpoint is configured.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parsePatch } from "../patch/parse.ts";
import type { Task } from "../task/spec.ts";
import { type PlannedCall, plannedTurn } from "./_turn.ts";
import type { Policy, PolicyRequest, PolicyTurn } from "./types.ts";

/** A policy that solves `task` with its reference patch (or gives up when it has none). */
export class ReferencePolicy implements Policy {
  readonly name = "reference";
  readonly model = null;
  readonly sampling = {};
  readonly textToolCalls = false;
  readonly #plan: PlannedCall[];
  #step = 0;

  constructor(task: Task) {
    this.#plan = referencePlan(task);
  }

  next(_request: PolicyRequest): Promise<PolicyTurn> {
    const call = this.#plan[Math.min(this.#step, this.#plan.length - 1)];
    return Promise.resolve(plannedTurn(this.#step++, [call]));
  }
}

/** The tool calls the reference policy makes for `task`. */
export function referencePlan(task: Task): PlannedCall[] {
  const plan: PlannedCall[] = [{ name: "inspect_tree", arguments: {} }];
  if (task.solutionPath === null) {
    plan.push({ name: "run_tests", arguments: {} });
    plan.push({
      name: "submit",
      arguments: { status: "blocked", summary: "The task has no reference patch" },
    });
    return plan;
  }
  const patch = readFileSync(task.solutionPath, "utf8");
  for (const path of touchedFiles(patch)) {
    if (existsSync(join(task.repoDir, path))) plan.push({ name: "read_file", arguments: { path } });
  }
  plan.push({ name: "apply_patch", arguments: { patch } });
  plan.push({ name: "run_tests", arguments: {} });
  plan.push({
    name: "submit",
    arguments: { status: "solved", summary: "Applied the reference patch" },
  });
  return plan;
}

/** Files a patch modifies or deletes (those that exist before it applies), in order. */
function touchedFiles(patch: string): string[] {
  const parsed = parsePatch(patch);
  const files = parsed.ok ? parsed.files : [];
  return [...new Set(files.flatMap((file) => (file.from === null ? [] : [file.from])))];
}
