/**
 * Sandbox users: when patchgym runs as root, every sandbox runs as its own unprivileged host uid and
 * gid from a configured range (the way `isolate` gives each box its own user), so sandboxes cannot
 * signal, trace or read each other even outside their namespaces, and per-user kernel quotas
 * (inotify instances, processes, keyrings, message queues) are the sandbox's own, not root's.
 *
 * A uid is leased for one run. Leases are held as exclusive locks on one file per uid in a shared
 * folder (default {@linkcode DEFAULT_LOCK_DIR}, root's), so two patchgym processes on one machine
 * never hand out the same uid at once; the kernel drops a dead process's locks.
 */
import { SandboxError } from "../errors.ts";

/** A range of host uids (and the same gids) for sandboxes. */
export interface UserRange {
  first: number;
  count: number;
}

/**
 * The default range: far above login users (1000-59999), systemd's dynamic users (61184-65519) and
 * the first subordinate-uid blocks of `/etc/subuid` (100000 and up, 65536 per user).
 */
export const DEFAULT_USER_RANGE: UserRange = { first: 1_500_000_000, count: 1024 };

/** Where uid leases are kept: a folder only root can write. */
export const DEFAULT_LOCK_DIR = "/run/patchgym/uids";

/**
 * The lowest uid a sandbox may run as: below it are login users (1000-59999) and systemd's dynamic
 * users (61184-65519), whose files and processes a sandbox must never own or signal.
 */
export const MIN_SANDBOX_UID = 65536;

/** Parse `FIRST-LAST` (inclusive) into a range; throws with the fix on a bad value. */
export function parseUserRange(text: string): UserRange {
  const match = /^(\d+)-(\d+)$/.exec(text.trim());
  const first = match ? Number(match[1]) : NaN;
  const last = match ? Number(match[2]) : NaN;
  if (!match || first < MIN_SANDBOX_UID || last < first || last > 4_294_967_293) {
    throw new SandboxError(
      `Cannot use sandbox uids "${text}": expected FIRST-LAST with ${MIN_SANDBOX_UID} <= FIRST <= LAST < 4294967294 (lower uids belong to login and system users), e.g. "${DEFAULT_USER_RANGE.first}-${
        DEFAULT_USER_RANGE.first + DEFAULT_USER_RANGE.count - 1
      }"`,
    );
  }
  return { first, count: last - first + 1 };
}

/** A leased uid; `release` when every process of the sandbox is gone. */
export interface UserLease {
  uid: number;
  release(): void;
}

/** Hands out uids of a range, one per concurrent sandbox. */
export class UserPool {
  readonly range: UserRange;
  readonly #lockDir: string;
  #next: number;
  readonly #waiting: (() => void)[] = [];

  constructor(range: UserRange, lockDir = DEFAULT_LOCK_DIR) {
    this.range = range;
    this.#lockDir = lockDir;
    // Processes start at different places, so they rarely try the same locks.
    this.#next = Math.floor(Math.random() * range.count);
  }

  /** How many leases wait for a uid now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Lease a free uid, waiting while every uid of the range is in use. */
  async lease(): Promise<UserLease> {
    while (true) {
      const lease = this.#tryLease();
      if (lease) return lease;
      // Freed here (a release wakes us) or by another process (polled).
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 50);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.#waiting.push(done);
      });
    }
  }

  /**
   * Lease a free uid if one is free now, else null (nothing waits). `upperHalf`: only from the
   * range's upper half (what jails made ahead may hold, so that runs always have the lower half).
   */
  tryLease(options: { upperHalf?: boolean } = {}): UserLease | null {
    return this.#tryLease(options.upperHalf ? Math.ceil(this.range.count / 2) : 0);
  }

  #tryLease(from = 0): UserLease | null {
    Deno.mkdirSync(this.#lockDir, { recursive: true, mode: 0o700 });
    const count = this.range.count - from;
    for (let i = 0; i < count; i++) {
      const offset = from + (Math.max(this.#next - from, 0) + i) % count;
      const uid = this.range.first + offset;
      const file = Deno.openSync(`${this.#lockDir}/${uid}`, {
        read: true,
        write: true,
        create: true,
      });
      // An flock belongs to its open file: a second open in this process conflicts too.
      if (!file.tryLockSync(true)) {
        file.close();
        continue;
      }
      this.#next = (offset + 1) % this.range.count;
      let released = false;
      return {
        uid,
        release: () => {
          if (released) return;
          released = true;
          file.close();
          this.#waiting.shift()?.();
        },
      };
    }
    return null;
  }
}
