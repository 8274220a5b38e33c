/**
 * A logger that collects lines in memory (the real app ships them elsewhere).
 */
import type { Config } from "./config.ts";

const LEVELS = { debug: 0, info: 1, warn: 2 } as const;

/** Collects log lines at or above the configured level. */
export class MemoryLogger {
  readonly lines: string[] = [];
  constructor(readonly config: Config, readonly context = "app") {}

  log(level: keyof typeof LEVELS, message: string): void {
    if (LEVELS[level] < LEVELS[this.config.logLevel]) return;
    this.lines.push(`[${this.config.appName}] ${level} ${this.context}: ${message}`);
  }
}
