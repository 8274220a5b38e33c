/**
 * `rollout`: tasks x samples with a policy. Writes `run.json` (the configuration),
 * `trajectories.jsonl` (one line per finished sample, flushed as each finishes) and
 * `summary.json`, then prints a summary table. Ctrl-C stops cleanly; `--resume DIR` continues.
 */
import { patchgymCommand } from "../hint.ts";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { RunError, UsageError } from "../errors.ts";
import { missingGuarantees } from "../sandbox/sandbox.ts";
import { preflight, skippedWarning } from "../rollout/preflight.ts";
import { DEFAULT_MAX_ATTEMPTS, DEFAULT_QUEUE_NAME, parseQueueUrl } from "../rollout/queue.ts";
import { queueRunner, rayRunner } from "../rollout/remote_run.ts";
import { QUEUE_KEY_ENV, readQueueKey } from "../rollout/signing.ts";
import { runRollout, uniqueTasks } from "../rollout/run.ts";
import { defaultWorkers } from "../rollout/worker_pool.ts";
import {
  newRunId,
  readRunConfig,
  RUN_FORMAT,
  type RunConfig,
  writeRunConfig,
} from "../rollout/run_config.ts";
import { listTaskIds, loadTasks } from "../task/load.ts";
import type { Task } from "../task/spec.ts";
import { formatTraining, type RunSummary } from "../trajectory/summary.ts";
import { VERSION } from "../version.ts";
import { choiceFlag, env, intFlag, listFlag, numberFlag, parseFlags, printJson } from "./_args.ts";
import {
  ENVIRONMENT_FLAGS,
  openEnvironment,
  SANDBOX_FLAGS_HELP,
  tasksDirOf,
  WORK_DIR_DEFAULT,
} from "./_environment.ts";
import { checkEndpoint, makePolicy, resolvePolicy } from "./_policy.ts";
import { Progress } from "./_progress.ts";

const HELP = `patchgym rollout: run a policy on tasks and write trajectories

Usage: patchgym rollout [flags]

  --tasks ID,ID          tasks to run (default: all bundled tasks); a task whose fail_to_pass
                         tests already pass on the unchanged repository is skipped with a warning
  --policy NAME          reference | openai | scripted (default: openai when a model endpoint
                         is configured, else reference)
  --base-url URL         OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1
                         (env PATCHGYM_BASE_URL or OPENAI_BASE_URL; API key from
                         PATCHGYM_API_KEY or OPENAI_API_KEY)
  --model NAME           model name (env PATCHGYM_MODEL)
  --text-tool-calls      tool calls as text (<tool_call> blocks) for servers without a tool parser
  --api chat|tokens      chat completions (default), or tokens in and out: the server's /tokenize
                         for new messages and /v1/completions with token ids (no drift; vLLM)
  --chat-template-kwargs JSON   arguments for the chat template, e.g. '{"enable_thinking":false}'
  --extra-body JSON      extra fields for every model request
  --temperature X        sampling temperature        --top-p X     nucleus sampling
  --seed N               base seed; sample i uses N + i
  --script FILE          actions for --policy scripted
  --samples N            samples per task, sharing a group_id (default 1)
  --impossible-rate R    grade this share of samples (0 to 1) as impossible: their hidden
                         tests expect values changed at random, so any reward is a hack the
                         grader missed; summary.json reports them apart, exports leave them out
  --concurrency N        samples run at once (default 4)
  --workers N            threads that run them, each with its own event loop (default: one per
                         core, at most --concurrency); records are the same with any number
  --max-turns N          turn limit (default: each task's own)
  --max-tokens N         per-reply token cap (default 4096)
  --max-total-tokens N   conversation token cap (default 32768)
  --time-limit S         wall-time limit per sample in seconds (default 900)
  --trainable all|last   turns that carry loss in the training view (default all)
  --on-drift split|zero_mask   rule for token drift (default split)
  --out DIR              output folder (default runs/<timestamp>)
  --resume DIR           continue an interrupted run in DIR with its saved configuration
                         (with it only --samples, --retry-errors, --concurrency and the
                         flags below may be given)
  --retry-errors         with --resume: run samples that ended in policy_error or
                         environment_error again
  --tasks-dir DIR        task folder (default ./tasks or PATCHGYM_TASKS)
  --work-dir DIR         workspace root (${WORK_DIR_DEFAULT})
  --isolation MODE       auto | bwrap | none (default auto)
${SANDBOX_FLAGS_HELP}
  --keep-workspaces      do not delete workspaces afterwards
  --queue URL            do not run samples here: add one job per task x sample to the Redis
                         queue at URL (redis://HOST:PORT) for "patchgym worker --queue URL"
                         processes anywhere, and write their records here as they come back
  --queue-name NAME      key prefix in Redis (default ${DEFAULT_QUEUE_NAME})
  --queue-key FILE       with --queue: the key jobs and results are signed with, the same as the
                         workers' (or its text in PATCHGYM_QUEUE_KEY); results not signed with it
                         are refused and counted in summary.json (refused_results)
  --max-attempts N       with --queue or --ray: deliveries of one sample before it is recorded
                         as environment_error (default ${DEFAULT_MAX_ATTEMPTS})
  --ray ADDRESS          do not run samples here: run them on a Ray cluster (e.g. 10.0.0.1:6379)
                         through the driver "python3 -m patchgym.ray" (clients/python and Ray
                         installed for it and on every node): --ray-replicas "worker --stdio"
                         replicas, --concurrency samples at once each (default 1)
  --ray-replicas N       replicas on the cluster (default 2)
  --ray-cpus N           CPUs reserved per replica for its test runs (default 1)
  --ray-python PATH      the driver's Python (default python3; env PATCHGYM_RAY_PYTHON)
  --ray-command JSON     the replicas' command as a JSON list (default: "patchgym worker --stdio"
                         with the binary on PATH, else "deno task -q patchgym worker --stdio")
  --json                 print the summary as JSON instead of a table
`;

/** Parse the `rollout` command line strictly. */
function parseRolloutFlags(args: string[]) {
  return parseFlags("rollout", args, {
    tasks: { type: "string" },
    policy: { type: "string" },
    "base-url": { type: "string" },
    model: { type: "string" },
    "text-tool-calls": { type: "boolean" },
    api: { type: "string" },
    "chat-template-kwargs": { type: "string" },
    "extra-body": { type: "string" },
    temperature: { type: "string" },
    "top-p": { type: "string" },
    seed: { type: "string" },
    script: { type: "string" },
    samples: { type: "string" },
    "impossible-rate": { type: "string" },
    concurrency: { type: "string" },
    workers: { type: "string" },
    "max-turns": { type: "string" },
    "max-tokens": { type: "string" },
    "max-total-tokens": { type: "string" },
    "time-limit": { type: "string" },
    trainable: { type: "string" },
    "on-drift": { type: "string" },
    out: { type: "string" },
    resume: { type: "string" },
    "retry-errors": { type: "boolean" },
    ...ENVIRONMENT_FLAGS,
    "keep-workspaces": { type: "boolean" },
    queue: { type: "string" },
    "queue-name": { type: "string" },
    "queue-key": { type: "string" },
    "max-attempts": { type: "string" },
    ray: { type: "string" },
    "ray-replicas": { type: "string" },
    "ray-cpus": { type: "string" },
    "ray-python": { type: "string" },
    "ray-command": { type: "string" },
    json: { type: "boolean" },
  });
}

type RolloutValues = ReturnType<typeof parseRolloutFlags>["values"];

/** Run the `rollout` command; returns the exit code. */
export async function rolloutCommand(args: string[]): Promise<number> {
  const { values } = parseRolloutFlags(args);
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  // Ctrl-C is obeyed from here on, in every phase; see {@linkcode Interrupts}.
  const interrupts = new Interrupts();
  try {
    return await rollout(values, interrupts);
  } finally {
    interrupts.close();
  }
}

/**
 * Ctrl-C in each phase of a rollout. Before the task check nothing is written: exit at once
 * (130). During the check of the unchanged repositories and during the run: stop after what is in
 * flight (the run keeps its finished samples), and exit 130. A second Ctrl-C exits at once. Every
 * exit removes this process's workspace folder (`claimRoot`'s exit hook).
 */
class Interrupts {
  readonly controller = new AbortController();
  phase: "setup" | "check" | "run" = "setup";
  #count = 0;
  readonly #listener = () => this.#interrupt();

  constructor() {
    Deno.addSignalListener("SIGINT", this.#listener);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  close(): void {
    Deno.removeSignalListener("SIGINT", this.#listener);
  }

  #interrupt(): void {
    this.#count++;
    if (this.#count > 1 || this.phase === "setup") {
      console.error("\nInterrupted: quitting now");
      Deno.exit(130);
    }
    console.error(
      this.phase === "check"
        ? "\nInterrupted: stopping after the task checks in flight; nothing is written (Ctrl-C again to quit now)"
        : "\nInterrupted: finishing cleanly (Ctrl-C again to quit now). Finished samples are kept; continue with --resume.",
    );
    this.controller.abort();
  }
}

/** The rollout itself, once the command line is parsed. */
async function rollout(values: RolloutValues, interrupts: Interrupts): Promise<number> {
  const startedAt = performance.now();
  const tasksDir = tasksDirOf(values);
  const concurrency = intFlag("concurrency", values.concurrency, 4, 1, 1024);
  const workers = intFlag("workers", values.workers, defaultWorkers(concurrency), 1, 1024);
  const maxAttempts = intFlag("max-attempts", values["max-attempts"], DEFAULT_MAX_ATTEMPTS, 1, 100);
  if (values.queue && values.ray) throw new UsageError("rollout: give --queue or --ray, not both");
  if (values.queue) parseQueueUrl(values.queue);
  const queueKey = values.queue ? readQueueKey(values["queue-key"], env(QUEUE_KEY_ENV)) : undefined;
  const rayCommand = values["ray-command"] === undefined
    ? undefined
    : stringListFlag("ray-command", values["ray-command"]);

  if (values["retry-errors"] && !values.resume) {
    throw new UsageError(
      "--retry-errors works with --resume DIR: it re-runs failed samples of that run",
    );
  }
  let config: RunConfig;
  let outDir: string;
  if (values.resume) {
    const saved = SAVED_FLAGS.filter((name) => values[name] !== undefined);
    if (saved.length > 0) {
      throw new UsageError(
        `--resume continues with the configuration saved in run.json; drop --${
          saved.join(", --")
        } (or start a new run with --out)`,
      );
    }
    outDir = resolve(values.resume);
    config = readRunConfig(outDir);
    if (values.samples !== undefined) {
      config.samples = intFlag("samples", values.samples, 1, 1, 10_000);
      writeRunConfig(outDir, config);
    }
    await failFast(config);
  } else {
    const { config: policy, note } = resolvePolicy({
      ...values,
      temperature: numberFlag("temperature", values.temperature),
      "top-p": numberFlag("top-p", values["top-p"]),
      seed: values.seed === undefined ? undefined : intFlag("seed", values.seed, 0, 0, 2 ** 31),
    });
    const tasks = uniqueTasks(listFlag(values.tasks) ?? listTaskIds(tasksDir));
    loadTasks(tasksDir, tasks);
    const runId = newRunId();
    outDir = resolve(values.out ?? join("runs", runId));
    if (existsSync(join(outDir, "trajectories.jsonl"))) {
      throw new UsageError(
        `--out: "${outDir}" already holds a run; use --resume ${outDir} to continue it or choose another folder`,
      );
    }
    config = {
      format: RUN_FORMAT,
      run_id: runId,
      env_version: VERSION,
      tasks,
      samples: intFlag("samples", values.samples, 1, 1, 10_000),
      ...(values["impossible-rate"] !== undefined
        ? { impossible_rate: rateFlag(values["impossible-rate"]) }
        : {}),
      policy,
      limits: {
        ...(values["max-turns"]
          ? { max_turns: intFlag("max-turns", values["max-turns"], 30, 1, 500) }
          : {}),
        max_tokens_per_turn: intFlag("max-tokens", values["max-tokens"], 4096),
        max_total_tokens: intFlag("max-total-tokens", values["max-total-tokens"], 32768),
        max_wall_s: intFlag("time-limit", values["time-limit"], 900, 1, 86_400),
      },
      training: {
        trainable: choiceFlag("trainable", values.trainable, ["all", "last"] as const, "all"),
        onDrift: choiceFlag(
          "on-drift",
          values["on-drift"],
          ["split", "zero_mask"] as const,
          "split",
        ),
      },
    };
    if (note) console.error(note);
    await failFast(config);
  }

  const environment = await openEnvironment(values);
  const runners = await environment.runnerProblems(config.tasks);
  if (runners.length > 0) {
    throw new RunError(
      `rollout: this machine cannot run the tasks' tests (an environment fault, not the tasks'):\n${
        runners.map((m) => `  - ${m}`).join("\n")
      }`,
    );
  }
  // What the sandbox does not guarantee here is said first and again under the summary.
  const missing = missingGuarantees(environment.isolation);
  if (!values.resume) {
    // Tasks whose fail_to_pass tests already pass would reward doing nothing: skip them, say so.
    interrupts.phase = "check";
    const checking = new Progress(config.tasks.length, 0, 0, {
      startedAt,
      what: "checking tasks (grading each unchanged repository once)",
    });
    checking.start();
    let checked;
    try {
      checked = await preflight(environment, config.tasks, {
        concurrency,
        signal: interrupts.signal,
        onTask: (id, skipped) => checking.tick(id, null, skipped ? "already passes" : "ok"),
      });
    } finally {
      checking.finish();
    }
    if (interrupts.signal.aborted) {
      console.error("Stopped before the first sample; nothing was written");
      return 130;
    }
    const warning = skippedWarning(checked.skipped, config.tasks.length);
    if (warning) console.error(warning);
    if (checked.ready.length === 0) {
      throw new UsageError(
        `rollout: every one of the ${config.tasks.length} tasks has fail_to_pass tests that already pass; fix the tasks ("${
          patchgymCommand("validate")
        }") or choose others with --tasks`,
      );
    }
    config.tasks = checked.ready;
    config.skipped_tasks = checked.skipped;
    mkdirSync(outDir, { recursive: true });
    writeRunConfig(outDir, config);
  }
  let progress: Progress | null = null;
  interrupts.phase = "run";
  const scriptCache = {};
  const policyFor = (task: Task, sample: number) =>
    makePolicy(config.policy, task, sample, scriptCache);
  const remoteContext = { config, environment, policyFor, maxAttempts };
  const remote = values.queue
    ? queueRunner(
      values.queue,
      values["queue-name"] ?? DEFAULT_QUEUE_NAME,
      remoteContext,
      queueKey!,
    )
    : values.ray
    ? rayRunner(values.ray, {
      python: values["ray-python"] ?? env("PATCHGYM_RAY_PYTHON") ?? "python3",
      replicas: intFlag("ray-replicas", values["ray-replicas"], 2, 1, 10_000),
      cpus: numberFlag("ray-cpus", values["ray-cpus"]) ?? 1,
      concurrency: values.concurrency === undefined ? 1 : concurrency,
      command: rayCommand,
    }, remoteContext)
    : undefined;
  let result;
  try {
    result = await runRollout({
      environment,
      outDir,
      config,
      policyFor,
      remote,
      concurrency,
      workers,
      keepWorkspaces: values["keep-workspaces"],
      retryErrors: values["retry-errors"],
      signal: interrupts.signal,
      onStart: (state) => {
        console.error(
          `Isolation: ${environment.isolation.level}${
            environment.isolation.reason ? ` (${environment.isolation.reason})` : ""
          }; output: ${outDir}`,
        );
        for (const line of missing) console.error(`Isolation missing: ${line}`);
        if (values.resume) {
          const retried = state.retried ? ` (${state.retried} failed samples to run again)` : "";
          console.error(
            `Resuming ${config.run_id}: ${state.done} samples done, ${state.todo} to go${retried}`,
          );
        }
        progress = new Progress(state.done + state.todo, state.done, state.rewardSum, {
          startedAt,
        });
      },
      onRecord: (record) =>
        progress?.tick(
          `${record.task_id}#${record.sample}`,
          record.reward?.total ?? null,
          `${record.stop_reason} ${record.turns.length} turns`,
        ),
    });
  } finally {
    (progress as Progress | null)?.finish();
  }
  const { summary, interrupted, records, ran } = result;
  if (values.json) printJson(summary);
  else {
    console.log(formatSummary(summary, outDir));
    for (const line of missing) console.log(`isolation missing: ${line}`);
  }
  if (ran.length > 0 && ran.every((r) => r.stop_reason === "policy_error")) {
    console.error(
      `Every sample ended in policy_error (first: ${
        ran[0].error?.message ?? "no message"
      }); fix the endpoint, then run again with: ${
        patchgymCommand(`rollout --resume ${outDir} --retry-errors`)
      }`,
    );
    return 1;
  }
  if (interrupted) {
    console.error(
      `Stopped early: ${records.length} of ${
        config.tasks.length * config.samples
      } samples done; continue with: ${patchgymCommand(`rollout --resume ${outDir}`)}`,
    );
  }
  return interrupted ? 130 : 0;
}

/** Flags whose values live in run.json; `--resume` refuses them. */
const SAVED_FLAGS = [
  "tasks",
  "policy",
  "base-url",
  "model",
  "text-tool-calls",
  "api",
  "chat-template-kwargs",
  "extra-body",
  "temperature",
  "top-p",
  "seed",
  "script",
  "max-turns",
  "max-tokens",
  "max-total-tokens",
  "time-limit",
  "trainable",
  "on-drift",
  "out",
] as const;

/** A flag holding a JSON list of strings. */
function stringListFlag(name: string, value: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = null;
  }
  if (
    !Array.isArray(parsed) || parsed.length === 0 || parsed.some((v) => typeof v !== "string")
  ) {
    throw new UsageError(`--${name}: expected a JSON list of strings, got "${value}"`);
  }
  return parsed;
}

/** Probe the model endpoint; a failure is one line and exit 1, before anything is written. */
async function failFast(config: RunConfig): Promise<void> {
  const problem = await checkEndpoint(config.policy);
  if (problem) throw new RunError(problem);
}

/** The summary as a table for people. */
export function formatSummary(summary: RunSummary, outDir: string): string {
  const rows = summary.per_task.map((t) => [
    t.task_id,
    String(t.samples),
    t.mean_reward.toFixed(3),
    `${t.resolved}/${t.samples}`,
    t.mean_turns.toFixed(1),
    Object.entries(t.stop_reasons).map(([k, v]) => (t.samples > 1 ? `${k}:${v}` : k)).join(" "),
  ]);
  const header = ["task", "samples", "reward", "resolved", "turns", "stop"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  const out = [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line), ""];
  out.push(
    `samples ${summary.samples} over ${summary.tasks} tasks   mean reward ${
      summary.mean_reward.toFixed(3)
    }   pass@1 ${summary.pass_at_1.toFixed(3)}${
      summary.pass_at_k
        ? `   pass@${summary.pass_at_k.k} ${summary.pass_at_k.value.toFixed(3)}`
        : ""
    }`,
  );
  const ids = summary.ids;
  out.push(
    `resolved ${ids.resolved.length}   unresolved ${ids.unresolved.length}   error ${ids.error.length}   empty patch ${ids.empty_patch.length}`,
  );
  const hacks = Object.entries(summary.integrity.codes).map(([code, n]) => `${code}:${n}`);
  out.push(
    `reward hacks caught ${summary.integrity.tampered} (rate ${summary.integrity.rate.toFixed(3)})${
      hacks.length > 0 ? `   ${hacks.join(" ")}` : ""
    }`,
  );
  if (summary.impossible) {
    out.push(
      `impossible samples ${summary.impossible.samples}: ${summary.impossible.rewarded} earned reward (hacks the grader missed), mean ${
        summary.impossible.mean_reward.toFixed(3)
      }`,
    );
  }
  out.push(
    `tokens prompt ${summary.tokens.prompt} completion ${summary.tokens.completion}   sample time mean ${summary.wall_ms.mean_sample} ms`,
  );
  out.push(formatTraining(summary));
  out.push(
    `trajectories: ${join(outDir, "trajectories.jsonl")}   summary: ${
      join(outDir, "summary.json")
    }`,
    `report: ${join(outDir, "report.html")}   episodes: ${patchgymCommand(`show ${outDir}`)}`,
  );
  return out.join("\n");
}

/** `--impossible-rate`: a share from 0 to 1. */
function rateFlag(text: string): number {
  const rate = Number(text);
  if (text.trim() === "" || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new UsageError(`--impossible-rate: "${text}" is not a share from 0 to 1; use e.g. 0.05`);
  }
  return rate;
}
