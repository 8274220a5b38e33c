import { Heap } from "./heap.js";
import { jobOrder, makeJob } from "./job.js";

/** Runs jobs when the clock says they are due (see README.md for the order). */
export class Scheduler {
  #clock;
  #queue = new Heap(jobOrder);
  #seq = 0;

  constructor(clock) {
    this.#clock = clock;
  }

  get pending() {
    return this.#queue.size;
  }

  /** Schedule `name` (`{ at, delay, priority, every }`); returns the job. */
  schedule(name, options = {}) {
    const job = makeJob(name, options, this.#clock.now(), this.#seq++);
    this.#queue.push(job);
    return job;
  }

  /** Cancel every pending job called `name`; returns how many were cancelled. */
  cancel(name) {
    return this.#queue.removeWhere((job) => job.name === name);
  }

  /** The time of the next job, or null. */
  nextAt() {
    return this.#queue.peek()?.at ?? null;
  }

  /**
   * Run every job due now, in order; repeating jobs are scheduled again `every` ms after the time
   * they were due. Returns the names run, in order.
   */
  runDue(run = () => {}) {
    const now = this.#clock.now();
    const ran = [];
    while (this.#queue.size > 0 && this.#queue.peek().at <= now) {
      const job = this.#queue.pop();
      job.runs++;
      run(job);
      ran.push(job.name);
      if (job.every !== undefined) {
        this.#queue.push({ ...job, at: job.at + job.every, seq: this.#seq++ });
      }
    }
    return ran;
  }
}
