/** The job registry: which jobs are due, and the upcoming run plan across all jobs. */
import { nextRun } from "../cron/mod.ts";
import { formatLocal } from "../time/mod.ts";
import { compileJob, type Job, type JobDefinition } from "./job.ts";

/** One planned run. `local` is the run time as the job's team reads it. */
export interface PlannedRun {
  jobId: string;
  at: Date;
  local: string;
}

export class Scheduler {
  readonly #jobs = new Map<string, Job>();

  /** Registers (or replaces) a job. */
  add(def: JobDefinition): this {
    this.#jobs.set(def.id, compileJob(def));
    return this;
  }

  remove(id: string): boolean {
    return this.#jobs.delete(id);
  }

  /** The next run of job `id` strictly after `after`, or null. */
  nextRunOf(id: string, after: Date): PlannedRun | null {
    const job = this.#jobs.get(id);
    if (!job || !job.enabled) return null;
    const at = nextRun(job.expression, after, job.offsetMinutes);
    return at && { jobId: job.id, at, local: formatLocal(at, job.offsetMinutes, job.offsetText) };
  }

  /** Every run in (from, to], ordered by time then job id. */
  plan(from: Date, to: Date): PlannedRun[] {
    const runs: PlannedRun[] = [];
    for (const id of this.#jobs.keys()) {
      let cursor = from;
      let run: PlannedRun | null;
      while ((run = this.nextRunOf(id, cursor)) && run.at <= to) {
        runs.push(run);
        cursor = run.at;
      }
    }
    return runs.sort((a, b) => a.at.getTime() - b.at.getTime() || a.jobId.localeCompare(b.jobId));
  }

  /** Ids of jobs that fire at the minute containing `now`. */
  due(now: Date): string[] {
    const minuteStart = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    const justBefore = new Date(minuteStart.getTime() - 1);
    return this.plan(justBefore, minuteStart).map((r) => r.jobId);
  }
}
