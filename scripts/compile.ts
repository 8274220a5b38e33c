/**
 * `deno task compile`: build `dist/patchgym`, one executable with the bundled tasks embedded and
 * the same narrow permission flags as `deno task patchgym` (read from deno.json, so they live in
 * one place). `deno compile` needs the Deno runtime `denort`: it downloads it from the Deno release
 * host, or uses the file named by `DENORT_BIN`.
 */
import config from "../deno.json" with { type: "json" };

const OUTPUT = "dist/patchgym";

/** The permission flags of the `patchgym` task in deno.json. */
export function permissionFlags(task: string): string[] {
  return task.split(/\s+/).filter((arg) => arg.startsWith("--allow-") || arg === "--no-prompt");
}

if (import.meta.main) {
  const flags = permissionFlags(config.tasks.patchgym);
  const args = ["compile", ...flags, "--include", "tasks", "--output", OUTPUT, "main.ts"];
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
