/**
 * A small finite state machine with guarded transitions.
 *
 * ```ts
 * const door = createMachine({
 *   initial: "closed",
 *   context: { locked: false },
 *   states: {
 *     closed: { on: { OPEN: { target: "open", guard: not("isLocked") } } },
 *     open: { on: { CLOSE: "closed" } },
 *   },
 *   guards: { isLocked: (ctx) => ctx.locked },
 * });
 * ```
 */

export interface MachineEvent {
  type: string;
  [key: string]: unknown;
}

/** A guard predicate. */
export type GuardFn<C, E extends MachineEvent = MachineEvent> = (context: C, event: E) => boolean;

/**
 * A guard: a named guard from the machine's `guards` table, an inline
 * predicate, or a combination built with {@linkcode and}, {@linkcode or}
 * and {@linkcode not}.
 */
export type Guard<C, E extends MachineEvent = MachineEvent> =
  | string
  | GuardFn<C, E>
  | { and: Guard<C, E>[] }
  | { or: Guard<C, E>[] }
  | { not: Guard<C, E> };

/** All guards must pass. */
export function and<C, E extends MachineEvent>(...guards: Guard<C, E>[]): Guard<C, E> {
  return { and: guards };
}

/** At least one guard must pass. */
export function or<C, E extends MachineEvent>(...guards: Guard<C, E>[]): Guard<C, E> {
  return { or: guards };
}

/** The guard must fail. */
export function not<C, E extends MachineEvent>(guard: Guard<C, E>): Guard<C, E> {
  return { not: guard };
}

export type Action<C, E extends MachineEvent = MachineEvent> = (context: C, event: E) => void;

export interface Transition<C, E extends MachineEvent = MachineEvent> {
  target: string;
  guard?: Guard<C, E>;
  actions?: Action<C, E>[];
}

export interface StateNode<C, E extends MachineEvent = MachineEvent> {
  /** Event type -> target name, transition, or candidate transitions (first passing guard wins). */
  on?: Record<string, string | Transition<C, E> | Transition<C, E>[]>;
  entry?: Action<C, E>[];
  exit?: Action<C, E>[];
  final?: boolean;
}

export interface MachineConfig<C, E extends MachineEvent = MachineEvent> {
  initial: string;
  context: C;
  states: Record<string, StateNode<C, E>>;
  guards?: Record<string, GuardFn<C, E>>;
}

export class Machine<C, E extends MachineEvent = MachineEvent> {
  #config: MachineConfig<C, E>;
  #state: string;
  #context: C;
  readonly history: string[];

  constructor(config: MachineConfig<C, E>) {
    for (const [name, node] of Object.entries(config.states)) {
      for (const t of Object.values(node.on ?? {}).flat()) {
        const target = typeof t === "string" ? t : t.target;
        if (!(target in config.states)) throw new Error(`state "${name}" targets unknown state "${target}"`);
      }
    }
    if (!(config.initial in config.states)) throw new Error(`unknown initial state "${config.initial}"`);
    this.#config = config;
    this.#state = config.initial;
    this.#context = structuredClone(config.context);
    this.history = [config.initial];
  }

  get state(): string {
    return this.#state;
  }

  get context(): C {
    return this.#context;
  }

  /** Whether the current state is final. */
  get done(): boolean {
    return this.#config.states[this.#state].final === true;
  }

  #checkGuard(guard: Guard<C, E>, event: E): boolean {
    if (typeof guard === "function") return guard(this.#context, event);
    if (typeof guard === "string") {
      const fn = this.#config.guards?.[guard];
      if (!fn) throw new Error(`unknown guard "${guard}"`);
      return fn(this.#context, event);
    }
    if ("and" in guard) return guard.and.every((g) => this.#checkGuard(g, event));
    if ("or" in guard) return guard.or.some((g) => this.#checkGuard(g, event));
    return !this.#checkGuard(guard.not, event);
  }

  #select(event: E): Transition<C, E> | undefined {
    if (this.done) return undefined;
    const spec = this.#config.states[this.#state].on?.[event.type];
    if (spec === undefined) return undefined;
    const candidates = typeof spec === "string" ? [{ target: spec }] : Array.isArray(spec) ? spec : [spec];
    return candidates.find((t) => t.guard === undefined || this.#checkGuard(t.guard, event));
  }

  /** Whether `event` would cause a transition now. */
  can(event: E | string): boolean {
    return this.#select(typeof event === "string" ? ({ type: event } as E) : event) !== undefined;
  }

  /** Process an event; returns whether a transition happened. */
  send(event: E | string): boolean {
    const ev = typeof event === "string" ? ({ type: event } as E) : event;
    const transition = this.#select(ev);
    if (!transition) return false;
    const from = this.#config.states[this.#state];
    const to = this.#config.states[transition.target];
    for (const a of from.exit ?? []) a(this.#context, ev);
    for (const a of transition.actions ?? []) a(this.#context, ev);
    this.#state = transition.target;
    this.history.push(transition.target);
    for (const a of to.entry ?? []) a(this.#context, ev);
    return true;
  }
}

export function createMachine<C, E extends MachineEvent = MachineEvent>(config: MachineConfig<C, E>): Machine<C, E> {
  return new Machine(config);
}
