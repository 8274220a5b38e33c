/**
 * JSONL output: one record per line, appended and flushed as each sample finishes, so nothing
 * finished is lost when a run is interrupted.
 */
import { existsSync, readFileSync } from "node:fs";

/** Appends JSON lines to a file, one write per line, serialized. */
export class JsonlWriter {
  readonly path: string;
  #file: Deno.FsFile | null = null;
  #queue: Promise<void> = Promise.resolve();
  readonly #encoder = new TextEncoder();

  constructor(path: string) {
    this.path = path;
  }

  /** Append one value as a line; resolves when it is written to the file. */
  write(value: unknown): Promise<void> {
    return this.writeLine(JSON.stringify(value));
  }

  /** Append one line of JSON text as it is (e.g. a record serialized elsewhere). */
  writeLine(text: string): Promise<void> {
    const bytes = this.#encoder.encode(`${text}\n`);
    this.#queue = this.#queue.then(async () => {
      this.#file ??= await Deno.open(this.path, { append: true, create: true });
      let written = 0;
      while (written < bytes.length) written += await this.#file.write(bytes.subarray(written));
    });
    return this.#queue;
  }

  /** Wait for pending writes and close the file. */
  async close(): Promise<void> {
    await this.#queue;
    this.#file?.close();
    this.#file = null;
  }
}

/**
 * Read the complete lines of a JSONL file. A last line cut short by a crash is ignored (and
 * reported in `partial`), so a run can resume after it.
 */
export function readJsonl<T = unknown>(path: string): { records: T[]; partial: boolean } {
  if (!existsSync(path)) return { records: [], partial: false };
  const text = readFileSync(path, "utf8");
  const lines = text.split("\n");
  const records: T[] = [];
  let partial = false;
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      records.push(JSON.parse(line) as T);
    } catch (error) {
      if (i === lines.length - 1) partial = true;
      else throw new Error(`${path}:${i + 1}: not valid JSON: ${(error as Error).message}`);
    }
  });
  return { records, partial };
}
