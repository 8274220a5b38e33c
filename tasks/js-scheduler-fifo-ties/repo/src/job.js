/** A scheduled job: what the scheduler keeps per `schedule()` call. */
export function makeJob(name, options, now, seq) {
  if (typeof name !== "string" || name === "") throw new TypeError("A job needs a name");
  const { at = now, delay, priority = 0, every } = options;
  if (every !== undefined && !(every > 0)) throw new RangeError(`"every" must be positive: ${every}`);
  return {
    name,
    at: delay === undefined ? at : now + delay,
    priority,
    every,
    seq,
    runs: 0,
  };
}

/** Order of jobs: earlier first, then higher priority. */
export function jobOrder(a, b) {
  return a.at - b.at || b.priority - a.priority;
}
