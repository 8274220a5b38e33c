/**
 * patchgym: a sandboxed environment for training coding agents with reinforcement learning.
 * This file only parses the command name and hands over to `src/cli/`.
 */
import { runCli } from "./src/cli/main.ts";

if (import.meta.main) Deno.exit(await runCli(Deno.args));
