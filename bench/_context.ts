/** What every benchmark section gets: where to put temporary files and where the tasks are. */

/** Shared inputs of the sections. */
export interface BenchContext {
  /** A private temporary folder, removed after the run. */
  root: string;
  /** The bundled tasks folder. */
  tasksDir: string;
  /** Progress line on stderr. */
  log(message: string): void;
}

/** Make a fresh folder under the context root. */
export function subdir(ctx: BenchContext, name: string): string {
  const dir = `${ctx.root}/${name}`;
  Deno.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Run a command bare and throw when it fails (a baseline that fails measures nothing). */
export async function spawnChecked(
  program: string,
  args: string[],
  cwd?: string,
): Promise<Deno.CommandOutput> {
  const output = await new Deno.Command(program, { args, cwd, stdin: "null" }).output();
  if (!output.success) {
    const stderr = new TextDecoder().decode(output.stderr).slice(0, 500);
    throw new Error(
      `Baseline "${program} ${args.join(" ")}" failed with exit code ${output.code}: ${stderr}`,
    );
  }
  return output;
}
