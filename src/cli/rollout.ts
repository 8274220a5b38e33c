/**
 * `rollout`: tasks x samples with a policy. Writes `run.json` (the configuration),
 * `trajectories.jsonl` (one line per finished sample, flushed as each finishes) and
 * `summary.json`, then prints a summary table. Ctrl-C stops cleanly; `--resume DIR` continues.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "../errors.ts";
import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_QUEUE_NAME,
  JOB_FORMAT,
  JobQueue,
  QueueError,
  type QueueJob,
  type QueueResult,
} from "../rollout/queue.ts";
import type { Environment } from "../rollout/environment.ts";
import { readLines } from "../rollout/lines.ts";
import { failedSample, runSample } from "../rollout/sample.ts";
import { listTaskIds, loadTasks } from "../task/load.ts";
import type { TrajectoryRecord } from "../trajectory/record.ts";
import {
  formatTraining,
  type RunSummary,
  summarize,
  SUMMARY_FORMAT,
} from "../trajectory/summary.ts";
import { JsonlWriter, readJsonl } from "../trajectory/writer.ts";
import { VERSION } from "../version.ts";
import { choiceFlag, env, intFlag, listFlag, numberFlag, parseFlags, printJson } from "./_args.ts";
import {
  ENVIRONMENT_FLAGS,
  openEnvironment,
  SANDBOX_FLAGS_HELP,
  tasksDirOf,
} from "./_environment.ts";
import { makePolicy, type PolicyConfig, resolvePolicy } from "./_policy.ts";
import { Progress } from "./_progress.ts";

const HELP = `patchgym rollout: run a policy on tasks and write trajectories

Usage: patchgym rollout [flags]

  --tasks ID,ID          tasks to run (default: all bundled tasks)
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
  --concurrency N        samples run at once (default 4)
  --max-turns N          turn limit (default: each task's own)
  --max-tokens N         per-reply token cap (default 4096)
  --max-total-tokens N   conversation token cap (default 32768)
  --time-limit S         wall-time limit per sample in seconds (default 900)
  --trainable all|last   turns that carry loss in the training view (default all)
  --on-drift split|zero_mask   rule for token drift (default split)
  --out DIR              output folder (default runs/<timestamp>)
  --resume DIR           continue an interrupted run in DIR with its saved configuration
  --tasks-dir DIR        task folder (default ./tasks or PATCHGYM_TASKS)
  --work-dir DIR         workspace root (default /tmp/patchgym)
  --isolation MODE       auto | bwrap | none (default auto)
${SANDBOX_FLAGS_HELP}
  --keep-workspaces      do not delete workspaces afterwards
  --queue URL            do not run samples here: add one job per task x sample to the Redis
                         queue at URL (redis://HOST:PORT) for "patchgym worker --queue URL"
                         processes anywhere, and write their records here as they come back
  --queue-name NAME      key prefix in Redis (default ${DEFAULT_QUEUE_NAME})
  --max-attempts N       with --queue: deliveries of one job before it is recorded as
                         environment_error (default ${DEFAULT_MAX_ATTEMPTS})
  --ray ADDRESS          do not run samples here: run them on a Ray cluster (e.g. 127.0.0.1:6379)
                         through the driver "python -m patchgym.ray" (clients/python installed
                         where the driver and every node run), one "worker --stdio" replica per
                         --ray-replicas, --concurrency samples at once each
  --ray-replicas N       replicas on the cluster (default 2)
  --ray-cpus N           CPUs reserved per replica for its test runs (default 1)
  --ray-python PATH      the Python with Ray and patchgym (default python3; env PATCHGYM_RAY_PYTHON)
  --ray-command JSON     the replicas' command as a JSON list (default: "patchgym worker --stdio"
                         with the binary on PATH, else "deno task -q patchgym worker --stdio")
  --json                 print the summary as JSON instead of a table
`;

/** Configuration saved in run.json. */
interface RunConfig {
  format: "patchgym.run.v1";
  run_id: string;
  env_version: string;
  tasks: string[];
  samples: number;
  policy: PolicyConfig;
  limits: {
    max_turns?: number;
    max_tokens_per_turn: number;
    max_total_tokens: number;
    max_wall_s: number;
  };
  training: { trainable: "all" | "last"; onDrift: "split" | "zero_mask" };
}

/** Run the `rollout` command; returns the exit code. */
export async function rolloutCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("rollout", args, {
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
    concurrency: { type: "string" },
    "max-turns": { type: "string" },
    "max-tokens": { type: "string" },
    "max-total-tokens": { type: "string" },
    "time-limit": { type: "string" },
    trainable: { type: "string" },
    "on-drift": { type: "string" },
    out: { type: "string" },
    resume: { type: "string" },
    ...ENVIRONMENT_FLAGS,
    "keep-workspaces": { type: "boolean" },
    queue: { type: "string" },
    "queue-name": { type: "string" },
    "max-attempts": { type: "string" },
    ray: { type: "string" },
    "ray-replicas": { type: "string" },
    "ray-cpus": { type: "string" },
    "ray-python": { type: "string" },
    "ray-command": { type: "string" },
    json: { type: "boolean" },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const tasksDir = tasksDirOf(values);
  const concurrency = intFlag("concurrency", values.concurrency, 4, 1, 1024);
  const maxAttempts = intFlag("max-attempts", values["max-attempts"], DEFAULT_MAX_ATTEMPTS, 1, 100);

  let config: RunConfig;
  let outDir: string;
  if (values.resume) {
    outDir = resolve(values.resume);
    const path = join(outDir, "run.json");
    if (!existsSync(path)) {
      throw new UsageError(
        `--resume: "${values.resume}" has no run.json; give the folder of an earlier rollout`,
      );
    }
    config = JSON.parse(readFileSync(path, "utf8"));
  } else {
    const { config: policy, note } = resolvePolicy({
      ...values,
      temperature: numberFlag("temperature", values.temperature),
      "top-p": numberFlag("top-p", values["top-p"]),
      seed: values.seed === undefined ? undefined : intFlag("seed", values.seed, 0, 0, 2 ** 31),
    });
    const tasks = listFlag(values.tasks) ?? listTaskIds(tasksDir);
    loadTasks(tasksDir, tasks);
    const runId = `run-${new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}-${
      crypto.randomUUID().slice(0, 6)
    }`;
    outDir = resolve(values.out ?? join("runs", runId));
    if (existsSync(join(outDir, "trajectories.jsonl"))) {
      throw new UsageError(
        `--out: "${outDir}" already holds a run; use --resume ${outDir} to continue it or choose another folder`,
      );
    }
    config = {
      format: "patchgym.run.v1",
      run_id: runId,
      env_version: VERSION,
      tasks,
      samples: intFlag("samples", values.samples, 1, 1, 10_000),
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
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, "run.json"), `${JSON.stringify(config, null, 2)}\n`);
  }

  const environment = await openEnvironment(values);
  const trajectories = join(outDir, "trajectories.jsonl");
  const previous = readJsonl<TrajectoryRecord>(trajectories);
  if (previous.partial) {
    // A line cut short by a crash: rewrite the file with the complete lines only.
    writeFileSync(trajectories, previous.records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  }
  const finished = new Set(previous.records.map((r) => `${r.task_id}#${r.sample}`));
  const jobs = config.tasks.flatMap((id) =>
    Array.from({ length: config.samples }, (_, sample) => ({ id, sample })).filter((j) =>
      !finished.has(`${j.id}#${j.sample}`)
    )
  );
  if (values.resume) {
    console.error(`Resuming ${config.run_id}: ${finished.size} samples done, ${jobs.length} to go`);
  }
  console.error(
    `Isolation: ${environment.isolation.level}${
      environment.isolation.reason ? ` (${environment.isolation.reason})` : ""
    }; output: ${outDir}`,
  );

  const writer = new JsonlWriter(trajectories);
  const records = [...previous.records];
  const progress = new Progress(
    finished.size + jobs.length,
    finished.size,
    records.reduce((n, r) => n + (r.reward?.total ?? 0), 0),
  );
  const stop = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) Deno.exit(130);
    console.error(
      "\nInterrupted: finishing cleanly (Ctrl-C again to quit now). Finished samples are kept; continue with --resume.",
    );
    stop.abort();
  };
  Deno.addSignalListener("SIGINT", onSigint);
  const scriptCache = {};
  const started = performance.now();
  // One record per episode id, however often a queue delivers it.
  const accept = async (record: TrajectoryRecord) => {
    const key = `${record.task_id}#${record.sample}`;
    if (finished.has(key)) return;
    finished.add(key);
    await writer.write(record);
    records.push(record);
    progress.tick(
      key,
      record.reward?.total ?? null,
      `${record.stop_reason} ${record.turns.length} turns`,
    );
  };
  try {
    if (values.queue && values.ray) {
      throw new UsageError("rollout: give --queue or --ray, not both");
    }
    if (values.ray) {
      await runOnRay(values.ray, {
        config,
        jobs: queueJobs(config, jobs, maxAttempts),
        environment,
        accept,
        signal: stop.signal,
        replicas: intFlag("ray-replicas", values["ray-replicas"], 2, 1, 10_000),
        cpus: numberFlag("ray-cpus", values["ray-cpus"]) ?? 1,
        concurrency: values.concurrency === undefined ? 1 : concurrency,
        python: values["ray-python"] ?? env("PATCHGYM_RAY_PYTHON") ?? "python3",
        command: values["ray-command"],
      });
    } else if (values.queue) {
      await runOnQueue(values.queue, values["queue-name"] ?? DEFAULT_QUEUE_NAME, {
        config,
        jobs: queueJobs(config, jobs, maxAttempts),
        environment,
        accept,
        signal: stop.signal,
      });
    } else {
      let next = 0;
      const worker = async () => {
        while (!stop.signal.aborted && next < jobs.length) {
          const job = jobs[next++];
          const task = environment.task(job.id);
          const record = await runSample(
            environment,
            task,
            makePolicy(config.policy, task, job.sample, scriptCache),
            identityOf(config, job.id, job.sample),
            {
              limits: config.limits,
              training: config.training,
              keepWorkspace: values["keep-workspaces"],
              signal: stop.signal,
            },
          );
          if (record.stop_reason === "interrupted") continue;
          await accept(record);
        }
      };
      await Promise.all(
        Array.from({ length: Math.min(concurrency, Math.max(1, jobs.length)) }, worker),
      );
    }
  } finally {
    Deno.removeSignalListener("SIGINT", onSigint);
    progress.finish();
    await writer.close();
  }
  const summary = summarize(records);
  const interrupted = stop.signal.aborted;
  writeFileSync(
    join(outDir, "summary.json"),
    `${
      JSON.stringify(
        {
          format: SUMMARY_FORMAT,
          run_id: config.run_id,
          env_version: VERSION,
          policy: { kind: config.policy.kind, model: config.policy.model },
          complete: !interrupted && records.length === config.tasks.length * config.samples,
          elapsed_ms: Math.round(performance.now() - started),
          ...summary,
        },
        null,
        2,
      )
    }\n`,
  );
  if (values.json) printJson(summary);
  else console.log(formatSummary(summary, outDir));
  if (interrupted) {
    console.error(
      `Stopped early: ${records.length} of ${
        config.tasks.length * config.samples
      } samples done; continue with: patchgym rollout --resume ${outDir}`,
    );
  }
  return interrupted ? 130 : 0;
}

/** The identity of sample `sample` of task `taskId` in the run. */
function identityOf(config: RunConfig, taskId: string, sample: number) {
  return {
    run_id: config.run_id,
    episode_id: `${config.run_id}/${taskId}/${sample}`,
    task_id: taskId,
    sample,
    group_id: `${config.run_id}/${taskId}`,
  };
}

/** What a queue job carries in its `run` field: how workers run the sample. */
export interface QueueRunSpec {
  policy: PolicyConfig;
  limits: RunConfig["limits"];
  training: RunConfig["training"];
}

/**
 * Add the jobs to the queue at `url` (those added before, by episode id, are not added again) and
 * hand each result to `accept` as it comes back, until every job has one or `signal` aborts.
 * A job the workers gave up on becomes an `environment_error` record here.
 */
async function runOnQueue(
  url: string,
  name: string,
  options: {
    config: RunConfig;
    jobs: QueueJob[];
    environment: Environment;
    accept: (record: TrajectoryRecord) => Promise<void>;
    signal: AbortSignal;
  },
): Promise<void> {
  const { config, environment, jobs } = options;
  const queue = await JobQueue.connect(url, name);
  try {
    const added = await queue.enqueue(jobs);
    console.error(
      `Queue ${url}: added ${added} job(s)${
        added < jobs.length ? ` (${jobs.length - added} were added before)` : ""
      }; waiting for workers ("patchgym worker --queue ${url}")`,
    );
    const remaining = new Map(jobs.map((j) => [j.episode_id, j]));
    let after = "0";
    while (remaining.size > 0 && !options.signal.aborted) {
      const batch = await queue.results(config.run_id, after, 1000);
      after = batch.next;
      for (const result of batch.results) {
        const job = remaining.get(result.episode_id);
        if (!job) continue; // A duplicate (a job run twice) or a sample done before a resume.
        remaining.delete(result.episode_id);
        await options.accept(await recordOf(result, job, environment, config));
      }
    }
    if (remaining.size === 0) await queue.forgetRun(config.run_id);
  } finally {
    await queue.close();
  }
}

/** The run's remaining samples as queue jobs (also what `rollout --ray` sends its driver). */
function queueJobs(
  config: RunConfig,
  jobs: { id: string; sample: number }[],
  maxAttempts: number,
): QueueJob[] {
  const run: QueueRunSpec = {
    policy: config.policy,
    limits: config.limits,
    training: config.training,
  };
  return jobs.map((j) => ({
    format: JOB_FORMAT,
    ...identityOf(config, j.id, j.sample),
    max_attempts: maxAttempts,
    run: run as unknown as Record<string, unknown>,
  }));
}

/**
 * Run the jobs on the Ray cluster at `address` through the driver `python -m patchgym.ray rollout`
 * (jobs on its stdin, results on its stdout), handing each result to `accept` as it comes back.
 * Interrupting stops the driver; its finished samples are kept and `--resume` runs the rest.
 */
async function runOnRay(
  address: string,
  options: {
    config: RunConfig;
    jobs: QueueJob[];
    environment: Environment;
    accept: (record: TrajectoryRecord) => Promise<void>;
    signal: AbortSignal;
    replicas: number;
    cpus: number;
    concurrency: number;
    python: string;
    command?: string;
  },
): Promise<void> {
  const { config, environment, jobs } = options;
  let command: string[] = [];
  if (options.command !== undefined) {
    try {
      command = JSON.parse(options.command);
    } catch {
      // Checked below.
    }
    if (!Array.isArray(command) || command.some((c) => typeof c !== "string") || !command.length) {
      throw new UsageError(
        `--ray-command: expected a JSON list of strings, got "${options.command}"`,
      );
    }
  }
  const args = [
    ...["-m", "patchgym.ray", "rollout", "--address", address],
    ...["--replicas", String(options.replicas), "--num-cpus", String(options.cpus)],
    ...["--concurrency", String(options.concurrency), "--cwd", Deno.cwd()],
    ...(command.length ? ["--", ...command] : []),
  ];
  let driver: Deno.ChildProcess;
  try {
    driver = new Deno.Command(options.python, {
      args,
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
  } catch (error) {
    throw new UsageError(
      `--ray: cannot start the driver "${options.python} -m patchgym.ray": ${
        (error as Error).message
      }; install Ray and clients/python for that Python, or pass --ray-python`,
    );
  }
  console.error(
    `Ray ${address}: ${jobs.length} job(s) on ${options.replicas} replica(s) through ${options.python} -m patchgym.ray`,
  );
  const stopDriver = () => {
    try {
      driver.kill("SIGTERM");
    } catch {
      // Already exited.
    }
  };
  options.signal.addEventListener("abort", stopDriver);
  try {
    const writer = driver.stdin.getWriter();
    await writer.write(
      new TextEncoder().encode(jobs.map((j) => `${JSON.stringify(j)}\n`).join("")),
    );
    await writer.close();
    const remaining = new Map(jobs.map((j) => [j.episode_id, j]));
    for await (const event of readLines(driver.stdout, 1024 ** 3)) {
      if (event.kind !== "line" || event.text.trim() === "") continue;
      let result: QueueResult;
      try {
        result = JSON.parse(event.text);
      } catch {
        console.error(event.text); // Something else the driver printed.
        continue;
      }
      const job = remaining.get(result.episode_id);
      if (!job) continue;
      remaining.delete(result.episode_id);
      await options.accept(await recordOf(result, job, environment, config));
    }
    const { code } = await driver.status;
    if (remaining.size > 0 && !options.signal.aborted) {
      throw new QueueError(
        `The Ray driver exited (code ${code}) with ${remaining.size} sample(s) not done; see its messages above, fix it and continue with --resume`,
      );
    }
  } finally {
    options.signal.removeEventListener("abort", stopDriver);
    stopDriver();
    await driver.status;
  }
}

/** The record a queue result stands for: the worker's own, or an `environment_error` one. */
function recordOf(
  result: QueueResult,
  job: QueueJob,
  environment: Environment,
  config: RunConfig,
): Promise<TrajectoryRecord> {
  const record = result.kind === "record" ? result.record as unknown as TrajectoryRecord : null;
  if (
    record && record.episode_id === job.episode_id && record.task_id === job.task_id &&
    record.sample === job.sample && record.run_id === job.run_id
  ) {
    return Promise.resolve(record);
  }
  const task = environment.task(job.task_id);
  const error = result.kind === "failed" ? result.error : {
    code: "job_failed",
    message: `The worker's record for "${job.episode_id}" names another sample; not kept`,
  };
  return failedSample(
    environment,
    task,
    makePolicy(config.policy, task, job.sample),
    identityOf(config, job.task_id, job.sample),
    error,
    { limits: config.limits, training: config.training },
  );
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
  const hacks = Object.entries(summary.integrity.codes).map(([code, n]) => `${code}:${n}`);
  out.push(
    `reward hacks caught ${summary.integrity.tampered} (rate ${summary.integrity.rate.toFixed(3)})${
      hacks.length > 0 ? `   ${hacks.join(" ")}` : ""
    }`,
  );
  out.push(
    `tokens prompt ${summary.tokens.prompt} completion ${summary.tokens.completion}   sample time mean ${summary.wall_ms.mean_sample} ms`,
  );
  out.push(formatTraining(summary));
  out.push(
    `trajectories: ${join(outDir, "trajectories.jsonl")}   summary: ${
      join(outDir, "summary.json")
    }`,
  );
  return out.join("\n");
}
