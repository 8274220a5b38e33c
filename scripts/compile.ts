/**
 * `deno task compile`: build `dist/patchgym`, one executable with the bundled tasks embedded and
 * the fixed narrow permission flags of the binary (`BINARY_FLAGS` in src/cli/permissions.ts: a
 * compiled binary bakes its flags, so it cannot derive them from each command line the way
 * `deno task patchgym` does). `deno compile` needs the Deno runtime `denort`: it downloads it from
 * the Deno release host, or uses the file named by `DENORT_BIN`.
 */
import { BINARY_FLAGS } from "../src/cli/permissions.ts";

const OUTPUT = "dist/patchgym";
/** Modules started as workers: `deno compile` embeds a worker's module only when told to. */
const WORKER_MODULES = ["src/rollout/_pool_worker.ts", "src/sandbox/_spawner_worker.ts"];

if (import.meta.main) {
  const flags = [...BINARY_FLAGS];
  const include = ["tasks", ...WORKER_MODULES].flatMap((path) => ["--include", path]);
  const args = ["compile", ...flags, ...include, "--output", OUTPUT, "main.ts"];
  const denort = Deno.env.get("DENORT_BIN");
  console.error(`deno ${args.join(" ")}${denort ? `  (DENORT_BIN=${denort})` : ""}`);
  const { code, stderr } = await new Deno.Command("deno", {
    args,
    stdout: "inherit",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stderr);
  if (code !== 0) {
    if (!denort && /dns error|download|dl\.deno\.land|error sending request|connect/i.test(text)) {
      console.error(
        `Cannot compile: the Deno runtime "denort" could not be downloaded from the Deno release host; get denort ${Deno.version.deno} for ${Deno.build.target} (denort-${Deno.build.target}.zip from a Deno release) on a machine that can reach it, unzip it and run again with DENORT_BIN=/path/to/denort`,
      );
    } else {
      console.error(text.trim());
    }
    Deno.exit(1);
  }
  console.error(`Built ${OUTPUT}`);
}
