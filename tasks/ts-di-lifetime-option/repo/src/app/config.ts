/**
 * Application configuration.
 */

/** Settings read at startup. */
export interface Config {
  appName: string;
  logLevel: "debug" | "info" | "warn";
}

/** Defaults used by tests and local runs. */
export const DEFAULT_CONFIG: Config = { appName: "accounts", logLevel: "info" };
