/**
 * The jails a sandbox made ahead of their runs (see `RunRequest.ahead`): which one waits for which
 * shape of run, who owns its folder, when it ends unused, and the uid it holds. Private to
 * `src/sandbox/`; `Sandbox` makes the jails and runs in them.
 */
import type { AheadChild } from "./_spawner.ts";
import type { SandboxCgroup } from "./cgroup.ts";
import type { UserLease } from "./users.ts";

/**
 * What owns the folder of runs whose jails may be made ahead (a workspace): it says when the
 * folder goes, so that a jail made for it ends first.
 */
export interface AheadOwner {
  /** Call `cleanup` (and wait for it) before the folder is removed or moved. */
  onRemove(cleanup: () => Promise<void>): void;
}

/** A jail made ahead for the next run of one shape (see `Sandbox`). */
export interface AheadJail {
  /** Who said more runs would come (`RunRequest.ahead`). */
  owner: AheadOwner;
  /** As root, the uid it runs as, leased until every process of it is gone; else null. */
  uid: number | null;
  child: AheadChild;
  cgroup: SandboxCgroup | null;
  /** Its launcher's tag (see `LaunchPlan.tag`). */
  tag: string;
}

/**
 * How many jails made ahead a sandbox keeps at most, for a range of `uids`: an eighth of it (at
 * least one), so that one thread's jails leave others theirs.
 */
export function aheadCap(uids: number): number {
  return Math.max(1, Math.floor(uids / 8));
}

interface Held {
  jail: AheadJail;
  /** Settles once every process of the jail is gone and its uid given back. */
  gone: Promise<void>;
  ended: boolean;
  expiry: ReturnType<typeof setTimeout>;
}

/** A sandbox's jails made ahead, by the shape of run each waits for. */
export class AheadJails {
  readonly #held = new Map<string, Held>();
  /** Owners told to end their jails when their folder goes. */
  readonly #owners = new WeakSet<AheadOwner>();
  readonly #cap: number;
  readonly #idleMs: number;

  constructor(options: { cap: number; idleMs: number }) {
    this.#cap = options.cap;
    this.#idleMs = options.idleMs;
  }

  /** Whether a jail for runs of shape `key` may be made now: none waits for it, and room. */
  wants(key: string): boolean {
    return !this.#held.has(key) && this.#held.size < this.#cap;
  }

  /**
   * Keep `jail`, made for runs of shape `key` (with `lease`, as root), until a run takes it, its owner's
   * folder goes, it is unused for the idle time, or it ends on its own.
   */
  add(key: string, jail: AheadJail, lease: UserLease | null): void {
    const held: Held = {
      jail,
      // Its result is in once its processes are gone and its cgroup swept.
      gone: jail.child.result.then(() => {}, () => {}).finally(() => {
        held.ended = true;
        lease?.release();
        this.#forget(held);
      }),
      ended: false,
      expiry: setTimeout(() => this.#end(held), this.#idleMs),
    };
    Deno.unrefTimer(held.expiry);
    this.#held.set(key, held);
    const owner = jail.owner;
    if (!this.#owners.has(owner)) {
      this.#owners.add(owner);
      owner.onRemove(() => this.endOwned(owner));
    }
  }

  /** The jail waiting for runs of shape `key`, taken for one: null when none waits (alive). */
  take(key: string): AheadJail | null {
    const held = this.#held.get(key);
    if (!held) return null;
    this.#forget(held);
    return held.ended ? null : held.jail;
  }

  /** End the oldest jail unused, once its uid is back; false when there is none. */
  async endOldest(): Promise<boolean> {
    const oldest = this.#held.values().next();
    if (oldest.done) return false;
    await this.#end(oldest.value);
    return true;
  }

  /** End every jail unused, and wait until their processes are gone. */
  async endAll(): Promise<void> {
    await Promise.all([...this.#held.values()].map((held) => this.#end(held)));
  }

  /** End `owner`'s jails unused, and wait until their processes are gone. */
  async endOwned(owner: AheadOwner): Promise<void> {
    this.#owners.delete(owner);
    const owned = [...this.#held.values()].filter((held) => held.jail.owner === owner);
    await Promise.all(owned.map((held) => this.#end(held)));
  }

  /** Wait until every jail being made is ready or ended: for measurements. */
  async ready(): Promise<void> {
    await Promise.all(
      [...this.#held.values()].map((held) => Promise.race([held.jail.child.ready, held.gone])),
    );
  }

  /** End `held` unused: its launcher is told no run comes; settles once its uid is back. */
  #end(held: Held): Promise<void> {
    this.#forget(held);
    held.jail.child.cancel();
    return held.gone;
  }

  #forget(held: Held): void {
    clearTimeout(held.expiry);
    for (const [key, other] of this.#held) if (other === held) this.#held.delete(key);
  }
}
