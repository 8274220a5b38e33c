/** Progress on long work: a bar redrawn in place on a terminal, plain lines otherwise. */

/** Reports done/total, mean reward and elapsed time. */
export class Progress {
  #total: number;
  readonly #tty: boolean;
  readonly #started = performance.now();
  readonly #encoder = new TextEncoder();
  #done = 0;
  #rewardSum = 0;

  constructor(total: number, alreadyDone = 0, rewardSum = 0) {
    this.#total = total;
    this.#done = alreadyDone;
    this.#rewardSum = rewardSum;
    this.#tty = Deno.stderr.isTerminal();
  }

  /** Change the total, for work whose size grows as it goes. */
  setTotal(total: number): void {
    this.#total = total;
  }

  /** Record one finished sample. */
  tick(label: string, reward: number | null, detail: string): void {
    this.#done++;
    this.#rewardSum += reward ?? 0;
    const mean = this.#done ? this.#rewardSum / this.#done : 0;
    const elapsed = ((performance.now() - this.#started) / 1000).toFixed(1);
    if (this.#tty) {
      const width = 24;
      const filled = Math.round((this.#done / Math.max(1, this.#total)) * width);
      const bar = "#".repeat(filled) + ".".repeat(width - filled);
      this.#write(
        `\r\x1b[2K[${bar}] ${this.#done}/${this.#total}  mean reward ${
          mean.toFixed(3)
        }  ${elapsed}s  ${label}`,
      );
    } else {
      this.#write(
        `[${this.#done}/${this.#total}] ${label} reward=${reward ?? "n/a"} ${detail} (mean ${
          mean.toFixed(3)
        }, ${elapsed}s)\n`,
      );
    }
  }

  /** End the bar's line. */
  finish(): void {
    if (this.#tty) this.#write("\n");
  }

  #write(text: string): void {
    Deno.stderr.writeSync(this.#encoder.encode(text));
  }
}
