/**
 * The environment's version, recorded in every trajectory. A constant rather than an import of
 * `deno.json`, so that loading patchgym's modules (worker threads do) reads nothing outside `src/`;
 * a test keeps it equal to the version in `deno.json`.
 */

/** patchgym's version (the `version` of deno.json). */
export const VERSION: string = "0.1.0";
