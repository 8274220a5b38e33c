/** Typed access to a parsed configuration by dotted path ("database.port"). */
import { type ConfBlock, type ConfValue, isBlock, parse } from "../parser/mod.ts";

/** Thrown when a setting is missing or has the wrong type. */
export class ConfigError extends Error {
  constructor(readonly path: string, reason: string) {
    super(`${path}: ${reason}`);
    this.name = "ConfigError";
  }
}

export class Config {
  constructor(readonly root: ConfBlock) {}

  /** Parses `source` (throws ConfSyntaxError with line and column). */
  static fromString(source: string): Config {
    return new Config(parse(source));
  }

  /** The raw value at a dotted path, or undefined. */
  get(path: string): ConfValue | undefined {
    let current: ConfValue | undefined = this.root;
    for (const part of path.split(".")) {
      if (!isBlock(current)) return undefined;
      current = current[part];
    }
    return current;
  }

  string(path: string, fallback?: string): string {
    return this.#typed(path, "string", fallback);
  }

  number(path: string, fallback?: number): number {
    return this.#typed(path, "number", fallback);
  }

  boolean(path: string, fallback?: boolean): boolean {
    return this.#typed(path, "boolean", fallback);
  }

  #typed<T>(path: string, type: string, fallback: T | undefined): T {
    const value = this.get(path);
    if (value === undefined) {
      if (fallback === undefined) throw new ConfigError(path, "is required");
      return fallback;
    }
    if (typeof value !== type) throw new ConfigError(path, `expected a ${type}, got ${JSON.stringify(value)}`);
    return value as T;
  }
}
