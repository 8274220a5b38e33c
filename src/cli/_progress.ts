/** Progress on long work: a bar redrawn in place on a terminal, plain lines otherwise. */

/** How a {@linkcode Progress} reports. */
export interface ProgressOptions {
  /** When the command started (`performance.now()`), so the clock counts every phase. */
  startedAt?: number;
  /**
   * What is being done, for work without rewards (e.g. checking tasks): shown instead of the mean
   * reward, and off a terminal only a first and a last line are printed.
   */
  what?: string;
  /**
   * What a tick with reward 1 makes, for work that keeps some of what it tries (e.g. "tasks"):
   * shown as a count instead of the mean reward, with a line per tick off a terminal.
   */
  kept?: string;
}

/** Reports done/total, mean reward and elapsed time. */
export class Progress {
  #total: number;
  readonly #tty: boolean;
  readonly #started: number;
  readonly #what: string | undefined;
  readonly #kept: string | undefined;
  readonly #encoder = new TextEncoder();
  #done = 0;
  #rewardSum = 0;

  constructor(total: number, alreadyDone = 0, rewardSum = 0, options: ProgressOptions = {}) {
    this.#total = total;
    this.#done = alreadyDone;
    this.#rewardSum = rewardSum;
    this.#started = options.startedAt ?? performance.now();
    this.#what = options.what;
    this.#kept = options.kept;
    this.#tty = Deno.stderr.isTerminal();
  }

  /** Say that the work has begun (before the first tick, which may take a while). */
  start(): void {
    if (this.#tty) this.#draw("");
    else if (this.#what) this.#write(`${this.#capitalized()}: ${this.#total} ...\n`);
  }

  /** Change the total, for work whose size grows as it goes. */
  setTotal(total: number): void {
    this.#total = total;
  }

  /** Record one finished sample. */
  tick(label: string, reward: number | null, detail: string): void {
    this.#done++;
    this.#rewardSum += reward ?? 0;
    if (this.#tty) this.#draw(label);
    else if (this.#kept) {
      this.#write(
        `[${this.#done}/${this.#total}] ${label} ${detail} (${this.#keptCount()}, ${this.#elapsed()}s)\n`,
      );
    } else if (!this.#what) {
      const mean = this.#done ? this.#rewardSum / this.#done : 0;
      this.#write(
        `[${this.#done}/${this.#total}] ${label} reward=${reward ?? "n/a"} ${detail} (mean ${
          mean.toFixed(3)
        }, ${this.#elapsed()}s)\n`,
      );
    }
  }

  /** End the bar's line (work without rewards: one line with the count and the time). */
  finish(): void {
    if (this.#tty) this.#write("\n");
    else if (this.#what) {
      this.#write(
        `${this.#capitalized()}: ${this.#done}/${this.#total} done (${this.#elapsed()}s)\n`,
      );
    }
  }

  #draw(label: string): void {
    const width = 24;
    const filled = Math.round((this.#done / Math.max(1, this.#total)) * width);
    const bar = "#".repeat(filled) + ".".repeat(width - filled);
    const middle = this.#what ?? (this.#kept ? this.#keptCount() : undefined) ??
      `mean reward ${(this.#done ? this.#rewardSum / this.#done : 0).toFixed(3)}`;
    this.#write(
      `\r\x1b[2K[${bar}] ${this.#done}/${this.#total}  ${middle}  ${this.#elapsed()}s  ${label}`,
    );
  }

  #keptCount(): string {
    return `${this.#rewardSum} ${this.#kept}`;
  }

  #elapsed(): string {
    return ((performance.now() - this.#started) / 1000).toFixed(1);
  }

  #capitalized(): string {
    const what = this.#what ?? "";
    return what.charAt(0).toUpperCase() + what.slice(1);
  }

  #write(text: string): void {
    Deno.stderr.writeSync(this.#encoder.encode(text));
  }
}
