/** The environment's version, recorded in every trajectory. */
import config from "../deno.json" with { type: "json" };

/** patchgym's version (from deno.json). */
export const VERSION: string = config.version;
