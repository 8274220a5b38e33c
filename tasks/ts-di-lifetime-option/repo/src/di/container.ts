/**
 * A small dependency-injection container with three lifetimes:
 *
 * - transient (default): a new instance on every resolve,
 * - singleton: one instance per root container, shared by all scopes,
 * - per scope: one instance per scope (e.g. per HTTP request).
 */
import { CircularDependencyError, MissingProviderError } from "./errors.ts";
import type { Token } from "./token.ts";

/** Builds an instance; resolve dependencies through the given container. */
export type Factory<T> = (c: Container) => T;

/** How a registration is cached. */
export interface RegisterOptions {
  /** One instance for the whole root container. */
  singleton?: boolean;
  /** One instance per scope. Ignored when `singleton` is also set. */
  perScope?: boolean;
}

interface Registration<T> {
  factory: Factory<T>;
  singleton: boolean;
  perScope: boolean;
}

/** A container or one of its scopes. */
export class Container {
  readonly #registrations: Map<Token<unknown>, Registration<unknown>>;
  readonly #singletons: Map<Token<unknown>, unknown>;
  readonly #scoped = new Map<Token<unknown>, unknown>();
  readonly #parent?: Container;
  #resolving: Token<unknown>[] = [];

  constructor(parent?: Container) {
    this.#parent = parent;
    this.#registrations = parent ? parent.#registrations : new Map();
    this.#singletons = parent ? parent.#singletons : new Map();
  }

  /** Registers (or replaces) the provider of `token`. */
  register<T>(token: Token<T>, factory: Factory<T>, options: RegisterOptions = {}): this {
    if (this.#parent) throw new Error("register on the root container, not on a scope");
    this.#registrations.set(token, {
      factory,
      singleton: options.singleton === true,
      perScope: options.perScope === true && options.singleton !== true,
    } as Registration<unknown>);
    this.#singletons.delete(token);
    return this;
  }

  /** Registers a ready-made value as a singleton. */
  value<T>(token: Token<T>, value: T): this {
    return this.register(token, () => value, { singleton: true });
  }

  /** True when `token` has a provider. */
  has(token: Token<unknown>): boolean {
    return this.#registrations.has(token);
  }

  /** A child scope sharing registrations and singletons but with its own per-scope instances. */
  createScope(): Container {
    return new Container(this.#parent ?? this);
  }

  /** Resolves `token`, building it and its dependencies as needed. */
  resolve<T>(token: Token<T>): T {
    const registration = this.#registrations.get(token) as Registration<T> | undefined;
    if (!registration) throw new MissingProviderError(token.name, this.#resolving.map((t) => t.name));
    if (registration.singleton) {
      if (this.#singletons.has(token)) return this.#singletons.get(token) as T;
      const root = this.#parent ?? this;
      const instance = this.#build(token, registration, root);
      this.#singletons.set(token, instance);
      return instance;
    }
    if (registration.perScope) {
      if (!this.#parent) throw new Error(`${token.name} is per-scope; resolve it from a scope`);
      if (this.#scoped.has(token)) return this.#scoped.get(token) as T;
      const instance = this.#build(token, registration, this);
      this.#scoped.set(token, instance);
      return instance;
    }
    return this.#build(token, registration, this);
  }

  #build<T>(token: Token<T>, registration: Registration<T>, via: Container): T {
    const stack = this.#resolving;
    if (stack.includes(token)) throw new CircularDependencyError([...stack, token].map((t) => t.name));
    via.#resolving = stack;
    stack.push(token);
    try {
      return registration.factory(via);
    } finally {
      stack.pop();
    }
  }
}
