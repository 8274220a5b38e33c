/** A plain-text buffer addressed by UTF-16 offsets. Commands edit it; the history undoes them. */
export class TextBuffer {
  #text: string;

  constructor(text = "") {
    this.#text = text;
  }

  /** The current contents. */
  get text(): string {
    return this.#text;
  }

  /** Number of UTF-16 code units. */
  get length(): number {
    return this.#text.length;
  }

  /** Inserts `text` at `offset` (0 <= offset <= length). */
  insert(offset: number, text: string): void {
    this.#check(offset);
    this.#text = this.#text.slice(0, offset) + text + this.#text.slice(offset);
  }

  /** Deletes `count` code units from `offset` and returns the removed text. */
  delete(offset: number, count: number): string {
    this.#check(offset);
    this.#check(offset + count);
    const removed = this.#text.slice(offset, offset + count);
    this.#text = this.#text.slice(0, offset) + this.#text.slice(offset + count);
    return removed;
  }

  #check(offset: number): void {
    if (!Number.isInteger(offset) || offset < 0 || offset > this.#text.length) {
      throw new RangeError(`offset ${offset} outside 0..${this.#text.length}`);
    }
  }
}
