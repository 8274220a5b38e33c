/**
 * Undoable edit commands. A command applies itself to a buffer and knows how to revert;
 * consecutive typing is merged into one command so that undo removes a word at a time.
 */
import type { TextBuffer } from "./buffer.ts";

/** An undoable edit. */
export interface Command {
  /** Human-readable label for menus ("Undo Typing"). */
  readonly label: string;
  apply(buffer: TextBuffer): void;
  revert(buffer: TextBuffer): void;
  /**
   * Tries to absorb `next` (already applied to the buffer) into this command so that both
   * undo together. Returns true when merged.
   */
  merge?(next: Command): boolean;
}

/** Typing or pasting `text` at `offset`. */
export class InsertText implements Command {
  readonly label = "Typing";

  constructor(public offset: number, public text: string) {}

  apply(buffer: TextBuffer): void {
    buffer.insert(this.offset, this.text);
  }

  revert(buffer: TextBuffer): void {
    buffer.delete(this.offset, this.text.length);
  }

  /** Merges typing that continues right where this insert ended, within one word. */
  merge(next: Command): boolean {
    if (!(next instanceof InsertText)) return false;
    if (next.offset !== this.offset + this.text.length) return false;
    // A word boundary starts a new undo step: "hello world" undoes as "hello" + " world".
    if (/\s/.test(next.text) && !/\s$/.test(this.text)) return false;
    this.text += next.text;
    return true;
  }
}

/** Deleting `count` characters from `offset` (backspace, delete, cut). */
export class DeleteText implements Command {
  readonly label = "Delete";
  #removed = "";

  constructor(public offset: number, public count: number) {}

  apply(buffer: TextBuffer): void {
    this.#removed = buffer.delete(this.offset, this.count);
  }

  revert(buffer: TextBuffer): void {
    buffer.insert(this.offset, this.#removed);
  }
}

/** Several commands applied and reverted as one step (e.g. "replace all"). */
export class Batch implements Command {
  constructor(readonly label: string, readonly commands: readonly Command[]) {}

  apply(buffer: TextBuffer): void {
    for (const c of this.commands) c.apply(buffer);
  }

  revert(buffer: TextBuffer): void {
    for (const c of [...this.commands].reverse()) c.revert(buffer);
  }
}
