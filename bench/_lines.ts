/** A line-based conversation with a helper child process over its stdin and stdout. */

/** A spawned helper that answers lines with lines. */
export class LineChild {
  readonly #child: Deno.ChildProcess;
  readonly #lines: ReadableStreamDefaultReader<string>;
  readonly #stdin: WritableStreamDefaultWriter<Uint8Array>;
  readonly #encoder = new TextEncoder();
  #buffered = "";

  /** Start `program` with `args`; its stderr goes to ours. */
  constructor(program: string, args: string[]) {
    this.#child = new Deno.Command(program, {
      args,
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.#lines = this.#child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    this.#stdin = this.#child.stdin.getWriter();
  }

  /** Send one line. */
  async send(line: string): Promise<void> {
    await this.#stdin.write(this.#encoder.encode(`${line}\n`));
  }

  /** The next line the child printed (without the newline). */
  async read(): Promise<string> {
    while (!this.#buffered.includes("\n")) {
      const { done, value } = await this.#lines.read();
      if (done) throw new Error("Helper process ended unexpectedly");
      this.#buffered += value;
    }
    const end = this.#buffered.indexOf("\n");
    const line = this.#buffered.slice(0, end);
    this.#buffered = this.#buffered.slice(end + 1);
    return line;
  }

  /** Close its stdin (its cue to exit) and wait for it to end. */
  async close(): Promise<void> {
    await this.#stdin.close();
    await this.#child.status;
    await this.#lines.cancel().catch(() => {});
  }
}
