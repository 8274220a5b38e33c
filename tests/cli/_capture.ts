/** Run a command with console output captured; the console is restored afterwards. */
export async function capture(
  run: () => Promise<number>,
): Promise<{ code: number; out: string; err: string }> {
  const { log, error } = console;
  const out: string[] = [];
  const err: string[] = [];
  console.log = (...args: unknown[]) => out.push(args.join(" "));
  console.error = (...args: unknown[]) => err.push(args.join(" "));
  try {
    const code = await run();
    return { code, out: out.join("\n"), err: err.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}
