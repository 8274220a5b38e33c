/** The editor model: a buffer, a cursor and a history, driven by key-level actions. */
import { TextBuffer } from "./buffer.ts";
import { Batch, DeleteText, InsertText } from "./commands.ts";
import { History, type HistoryOptions } from "./history.ts";

export class Editor {
  readonly buffer: TextBuffer;
  readonly history: History;
  #cursor: number;

  constructor(text = "", options: HistoryOptions = {}) {
    this.buffer = new TextBuffer(text);
    this.history = new History(this.buffer, options);
    this.#cursor = text.length;
  }

  get text(): string {
    return this.buffer.text;
  }

  get cursor(): number {
    return this.#cursor;
  }

  /** Moves the cursor; also ends the current typing step. */
  moveTo(offset: number): void {
    this.#cursor = Math.max(0, Math.min(offset, this.buffer.length));
    this.history.seal();
  }

  /** Types `text` at the cursor. */
  type(text: string): void {
    this.history.execute(new InsertText(this.#cursor, text));
    this.#cursor += text.length;
  }

  /** Deletes the character before the cursor. */
  backspace(): void {
    if (this.#cursor === 0) return;
    this.history.execute(new DeleteText(this.#cursor - 1, 1));
    this.#cursor -= 1;
  }

  /** Replaces every occurrence of `search` as one undo step. */
  replaceAll(search: string, replacement: string): number {
    const commands = [];
    let from = this.buffer.text.lastIndexOf(search);
    while (search !== "" && from !== -1) {
      commands.push(new DeleteText(from, search.length), new InsertText(from, replacement));
      from = from === 0 ? -1 : this.buffer.text.lastIndexOf(search, from - 1);
    }
    if (commands.length > 0) this.history.execute(new Batch("Replace All", commands));
    this.#cursor = Math.min(this.#cursor, this.buffer.length);
    return commands.length / 2;
  }

  undo(): void {
    this.history.undo();
    this.#cursor = Math.min(this.#cursor, this.buffer.length);
  }

  redo(): void {
    this.history.redo();
    this.#cursor = Math.min(this.#cursor, this.buffer.length);
  }
}
