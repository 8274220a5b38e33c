/**
 * Runs queued jobs by priority (higher first); jobs with equal priority run
 * in the order they were scheduled.
 */
import { BinaryHeap } from "./heap.ts";

export interface Job {
  name: string;
  priority: number;
  run: () => void;
}

interface Queued extends Job {
  seq: number;
}

export class TaskSchedular {
  #heap = new BinaryHeap<Queued>((a, b) => b.priority - a.priority || a.seq - b.seq);
  #seq = 0;
  readonly completed: string[] = [];

  schedule(name: string, run: () => void, priority = 0): this {
    this.#heap.push({ name, run, priority, seq: this.#seq++ });
    return this;
  }

  get pending(): number {
    return this.#heap.size;
  }

  /** Name of the job that would run next. */
  peekNext(): string | undefined {
    return this.#heap.peekMin()?.name;
  }

  /** Run the next job; returns its name, or undefined when idle. */
  runNext(): string | undefined {
    const job = this.#heap.popMin();
    if (!job) return undefined;
    job.run();
    this.completed.push(job.name);
    return job.name;
  }

  /** Run jobs until the queue is empty (jobs may schedule more jobs). */
  runAll(limit = 10_000): number {
    let n = 0;
    while (this.pending > 0) {
      if (n >= limit) throw new Error(`runAll exceeded ${limit} jobs`);
      this.runNext();
      n++;
    }
    return n;
  }
}
