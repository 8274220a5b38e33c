/**
 * A rollout run: tasks x samples through a worker pool (or elsewhere: a {@linkcode RemoteRunner}
 * runs them on queue workers or a Ray cluster), one trajectory line flushed as each sample
 * finishes, resume from what a folder already holds, clean interruption through an
 * `AbortSignal`, and `summary.json` at the end. The CLI's `rollout` is a thin wrapper around
 * {@linkcode runRollout}; anything else can run a rollout in-process the same way.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../errors.ts";
import type { Policy } from "../policy/types.ts";
import type { Task } from "../task/spec.ts";
import { digestRecord, type RecordDigest, recordLine } from "../trajectory/digest.ts";
import { parseTrajectories, type TrajectoryRecord } from "../trajectory/record.ts";
import { type RunSummary, summarize, SUMMARY_FORMAT } from "../trajectory/summary.ts";
import { renderReport, REPORT_FILE } from "../trajectory/report.ts";
import { JsonlWriter } from "../trajectory/writer.ts";
import { VERSION } from "../version.ts";
import type { Environment } from "../agent/environment.ts";
import type { RemoteRunner } from "./remote_run.ts";
import type { RunConfig } from "./run_config.ts";
import { runSample } from "./sample.ts";
import { poolAvailable, type WorkerPool, workerPoolRunner } from "./worker_pool.ts";

/** Stop reasons `retryErrors` runs again: the sample failed for a reason outside the agent. */
export const RETRYABLE_STOP_REASONS: readonly string[] = ["policy_error", "environment_error"];

/** How to run. */
export interface RolloutOptions {
  environment: Environment;
  /** The run folder; it holds `run.json` and receives the trajectories and summary. */
  outDir: string;
  config: RunConfig;
  /** The policy of one sample. */
  policyFor: (task: Task, sample: number) => Policy;
  /** Samples run at once (default 4). */
  concurrency?: number;
  /**
   * Worker threads that run the samples (default 1: this thread). With more, each sample's policy
   * is built from `config.policy` in its thread (`policyFor` then only names the policy of a
   * sample whose thread died), and this thread writes every record; see `worker_pool.ts`. Where
   * the process may not start them (`poolAvailable`), the samples run on this thread.
   */
  workers?: number;
  /**
   * Worker threads already started on `environment` (see {@linkcode WorkerPool}): the samples run
   * there, `workers` is not used, and the pool stays open for the next run (the caller closes it).
   */
  pool?: WorkerPool;
  keepWorkspaces?: boolean;
  /** Drop finished samples that ended in `policy_error` or `environment_error` and run them again. */
  retryErrors?: boolean;
  /** Aborting it stops cleanly: samples in flight end as `interrupted` and are not written. */
  signal?: AbortSignal;
  /** Called once before the first sample with what the folder already held. */
  onStart?: (state: RunStart) => void;
  /** Called after each sample's record is written, with its digest. */
  onRecord?: (record: RecordDigest) => void;
  /** Run the samples elsewhere (a queue, a Ray cluster) instead of in this process. */
  remote?: RemoteRunner;
}

/** What a run starts from. */
export interface RunStart {
  /** Samples already finished in the folder. */
  done: number;
  /** Samples to run now. */
  todo: number;
  /** Sum of the finished samples' rewards. */
  rewardSum: number;
  /** Finished samples dropped to run again (`retryErrors`). */
  retried: number;
  /** A last line cut short by a crash was dropped. */
  repaired: boolean;
}

/** The `summary.json` of a run. */
export interface RunSummaryFile extends RunSummary {
  format: typeof SUMMARY_FORMAT;
  run_id: string;
  env_version: string;
  policy: { kind: string; model: string | null };
  /** Every task x sample of the configuration has a record. */
  complete: boolean;
  /** Tasks asked for but left out because their fail_to_pass tests already pass. */
  skipped_tasks: NonNullable<RunConfig["skipped_tasks"]>;
  elapsed_ms: number;
  /** Results of remote workers refused (unsigned, forged, replayed), by reason; none: absent. */
  refused_results?: Record<string, number>;
}

/** What a run produced. */
export interface RolloutResult {
  /**
   * Every record in the folder, earlier ones included, as digests (`digest.ts`): the records
   * themselves are in `trajectories.jsonl`, and a run does not keep them in memory.
   */
  records: RecordDigest[];
  /** The digests of the records written by this call. */
  ran: RecordDigest[];
  summary: RunSummaryFile;
  /** The signal stopped the run before every sample finished. */
  interrupted: boolean;
}

/** Run (or continue) the rollout in `options.outDir`. */
export async function runRollout(options: RolloutOptions): Promise<RolloutResult> {
  const { environment, config, outDir } = options;
  const path = join(outDir, "trajectories.jsonl");
  const { retried, records, partial } = earlierRecords(path, config.run_id, options.retryErrors);
  const finished = new Set(records.map((r) => r.episode_id));
  const jobs = uniqueTasks(config.tasks).flatMap((id) =>
    Array.from({ length: config.samples }, (_, sample) => ({
      id,
      sample,
      episode: episodeId(config.run_id, id, sample),
      // Drawn per run: which samples are impossible is known only here.
      impossible: (config.impossible_rate ?? 0) > 0 && Math.random() < config.impossible_rate!,
    })).filter((j) => !finished.has(j.episode))
  );
  options.onStart?.({
    done: records.length,
    todo: jobs.length,
    rewardSum: records.reduce((n, r) => n + (r.reward?.total ?? 0), 0),
    retried,
    repaired: partial,
  });

  const writer = new JsonlWriter(path);
  const ran: RecordDigest[] = [];
  const signal = options.signal ?? new AbortController().signal;
  const started = performance.now();
  const concurrency = options.concurrency ?? 4;
  const remote = options.remote ??
    options.pool?.runner(
      { config, environment, policyFor: options.policyFor, maxAttempts: 1 },
      { concurrency, keepWorkspaces: options.keepWorkspaces },
    ) ??
    ((options.workers ?? 1) > 1 && jobs.length > 1 && poolAvailable()
      ? workerPoolRunner(
        { config, environment, policyFor: options.policyFor, maxAttempts: 1 },
        { workers: options.workers!, concurrency, keepWorkspaces: options.keepWorkspaces },
      )
      : undefined);
  let refusedResults: Record<string, number> | undefined;
  try {
    if (remote) {
      // One record per episode id, however often a worker delivered it.
      const delivered = new Set<string>();
      const outcome = await remote(
        jobs.map((j) => ({
          task_id: j.id,
          sample: j.sample,
          episode_id: j.episode,
          group_id: `${config.run_id}/${j.id}`,
          ...(j.impossible ? { impossible: true } : {}),
        })),
        async ({ line, digest }) => {
          if (delivered.has(digest.episode_id) || finished.has(digest.episode_id)) return;
          delivered.add(digest.episode_id);
          await writer.writeLine(line);
          ran.push(digest);
          options.onRecord?.(digest);
        },
        signal,
      );
      if (outcome && Object.keys(outcome.refused).length > 0) refusedResults = outcome.refused;
    } else {
      let next = 0;
      const worker = async () => {
        while (!signal.aborted && next < jobs.length) {
          const job = jobs[next++];
          const task = environment.task(job.id);
          const record = await runSample(
            environment,
            task,
            options.policyFor(task, job.sample),
            {
              run_id: config.run_id,
              episode_id: job.episode,
              task_id: job.id,
              sample: job.sample,
              group_id: `${config.run_id}/${job.id}`,
            },
            {
              limits: config.limits,
              training: config.training,
              keepWorkspace: options.keepWorkspaces,
              signal,
              impossible: job.impossible,
            },
          );
          if (record.stop_reason === "interrupted") continue;
          const { line, digest } = recordLine(record);
          await writer.writeLine(line);
          ran.push(digest);
          options.onRecord?.(digest);
        }
      };
      const workers = Math.min(concurrency, Math.max(1, jobs.length));
      await Promise.all(Array.from({ length: workers }, worker));
    }
  } finally {
    await writer.close();
  }
  const all = [...records, ...ran];
  const interrupted = signal.aborted && ran.length < jobs.length;
  const summary: RunSummaryFile = {
    format: SUMMARY_FORMAT,
    run_id: config.run_id,
    env_version: VERSION,
    policy: { kind: config.policy.kind, model: config.policy.model },
    complete: !interrupted && ran.length === jobs.length,
    skipped_tasks: config.skipped_tasks ?? [],
    elapsed_ms: Math.round(performance.now() - started),
    ...summarize(all),
    ...(refusedResults ? { refused_results: refusedResults } : {}),
  };
  writeFileSync(join(outDir, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  writeRunReport(outDir, all, summary);
  return { records: all, ran, summary, interrupted };
}

/** Write `report.html` into a run folder, from its records' digests. */
export function writeRunReport(
  outDir: string,
  episodes: readonly RecordDigest[],
  summary: RunSummary & { run_id?: string; policy?: { kind: string; model: string | null } },
): string {
  const runId = summary.run_id ?? episodes[0]?.run_id ?? "(unknown run)";
  const policy = summary.policy
    ? `policy ${summary.policy.kind}${summary.policy.model ? ` (${summary.policy.model})` : ""}`
    : episodes[0]
    ? `policy ${episodes[0].policy.name}${
      episodes[0].policy.model ? ` (${episodes[0].policy.model})` : ""
    }`
    : "no samples";
  const isolation = episodes[0] ? `, isolation ${episodes[0].isolation}` : "";
  const path = join(outDir, REPORT_FILE);
  writeFileSync(
    path,
    renderReport({
      run_id: runId,
      subtitle: `${policy}${isolation}, ${episodes.length} samples, patchgym ${VERSION}`,
      summary,
      episodes,
    }),
  );
  return path;
}

/** The episode id of one sample: unique within a run. */
export function episodeId(runId: string, taskId: string, sample: number): string {
  return `${runId}/${taskId}/${sample}`;
}

/** Task ids in order, each once (a repeated id would give two samples one episode id). */
export function uniqueTasks(ids: string[]): string[] {
  return [...new Set(ids)];
}

/**
 * The digests of the records `path` already holds (see {@linkcode readRunTrajectories}), without
 * the failed ones when `retryErrors` (`retried` counts them). The file is rewritten with the records
 * kept when lines go (a rename, so a crash leaves the old file or the new one).
 */
function earlierRecords(
  path: string,
  runId: string,
  retryErrors = false,
): { records: RecordDigest[]; retried: number; partial: boolean } {
  const previous = readRunTrajectories(path, runId);
  const kept = retryErrors
    ? previous.records.filter((r) => !RETRYABLE_STOP_REASONS.includes(r.stop_reason))
    : previous.records;
  const retried = previous.records.length - kept.length;
  if (previous.rewrite || retried > 0) {
    const temp = `${path}.tmp`;
    writeFileSync(temp, kept.map((r) => `${JSON.stringify(r)}\n`).join(""));
    renameSync(temp, path);
  }
  return { records: kept.map(digestRecord), retried, partial: previous.partial };
}

/**
 * The records a run folder already holds, checked: every line must be a valid record of run
 * `runId` (else a {@linkcode UsageError} naming the first bad line); a last line cut short by a
 * crash and repeated episode ids are dropped, and `rewrite` says the file needs rewriting.
 */
export function readRunTrajectories(
  path: string,
  runId: string,
): { records: TrajectoryRecord[]; partial: boolean; rewrite: boolean } {
  if (!existsSync(path)) return { records: [], partial: false, rewrite: false };
  const parsed = parseTrajectories(readFileSync(path, "utf8"));
  if (parsed.problems.length > 0) {
    throw new UsageError(
      `--resume: "${path}" is damaged at ${parsed.problems[0]}${
        parsed.badLines.length > 1 ? ` (and ${parsed.badLines.length - 1} more bad lines)` : ""
      }; move the file away to start over, or start a new run with --out`,
    );
  }
  const foreign = parsed.records.find((r) => r.run_id !== runId);
  if (foreign) {
    throw new UsageError(
      `--resume: "${path}" holds trajectories of another run ("${foreign.run_id}", not "${runId}"); give the folder the run wrote, or start a new run with --out`,
    );
  }
  const seen = new Set<string>();
  const records = parsed.records.filter((r) => !seen.has(r.episode_id) && seen.add(r.episode_id));
  return {
    records,
    partial: parsed.partial,
    rewrite: parsed.partial || records.length < parsed.records.length,
  };
}
