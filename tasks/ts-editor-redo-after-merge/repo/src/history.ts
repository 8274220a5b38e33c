/**
 * The undo/redo stack. `execute` applies a command and records it; `undo` and `redo` move
 * commands between the two stacks. The redo stack only makes sense for the exact state it
 * was recorded against, so any new edit discards it.
 */
import type { TextBuffer } from "./buffer.ts";
import type { Command } from "./commands.ts";

/** Options for {@linkcode History}. */
export interface HistoryOptions {
  /** Maximum undo steps kept; the oldest are dropped first. */
  limit?: number;
}

export class History {
  readonly #undo: Command[] = [];
  readonly #redo: Command[] = [];
  readonly #limit: number;
  /** Set by `seal()`: the next command starts a new undo step even if it could merge. */
  #sealed = false;

  constructor(private readonly buffer: TextBuffer, options: HistoryOptions = {}) {
    this.#limit = options.limit ?? 100;
  }

  /** Applies `command` and records it for undo (merging with the previous step if it can). */
  execute(command: Command): void {
    command.apply(this.buffer);
    const top = this.#undo[this.#undo.length - 1];
    if (top?.merge && !this.#sealed && top.merge(command)) {
      return;
    }
    this.#redo.length = 0;
    this.#sealed = false;
    this.#undo.push(command);
    if (this.#undo.length > this.#limit) this.#undo.shift();
  }

  /** Ends the current undo step (called on cursor moves, saves, focus changes). */
  seal(): void {
    this.#sealed = true;
  }

  /** Reverts the last step; returns false when there is nothing to undo. */
  undo(): boolean {
    const command = this.#undo.pop();
    if (!command) return false;
    command.revert(this.buffer);
    this.#redo.push(command);
    return true;
  }

  /** Re-applies the last undone step; returns false when there is nothing to redo. */
  redo(): boolean {
    const command = this.#redo.pop();
    if (!command) return false;
    command.apply(this.buffer);
    this.#undo.push(command);
    return true;
  }

  get canUndo(): boolean {
    return this.#undo.length > 0;
  }

  get canRedo(): boolean {
    return this.#redo.length > 0;
  }

  /** Label of the step `undo()` would revert, for the Edit menu. */
  get undoLabel(): string | undefined {
    return this.#undo[this.#undo.length - 1]?.label;
  }
}
