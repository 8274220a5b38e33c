/** The search-box controller: what the user typed, the visible suggestions, the highlight. */
import type { Autocomplete } from "./autocomplete.ts";

export class SearchBox {
  #input = "";
  #suggestions: string[] = [];
  /** Index of the highlighted suggestion, or -1 for none. */
  #highlight = -1;

  constructor(private readonly index: Autocomplete, private readonly limit = 5) {}

  get input(): string {
    return this.#input;
  }

  get suggestions(): readonly string[] {
    return this.#suggestions;
  }

  get highlighted(): string | undefined {
    return this.#suggestions[this.#highlight];
  }

  /** Updates the typed text and refreshes the suggestions (highlight cleared). */
  type(input: string): void {
    this.#input = input;
    this.#suggestions = input.trim() === "" ? [] : this.index.suggestLastWord(input, this.limit);
    this.#highlight = -1;
  }

  /** Moves the highlight down (1) or up (-1), wrapping around. */
  move(step: 1 | -1): void {
    const n = this.#suggestions.length;
    if (n === 0) return;
    this.#highlight = this.#highlight === -1 && step === -1 ? n - 1 : (this.#highlight + step + n) % n;
  }

  /** Accepts the highlighted suggestion (or the typed text); records the pick. */
  submit(): string {
    const chosen = this.highlighted ?? this.#input.trim();
    if (chosen !== "") this.index.pick(chosen);
    this.type("");
    return chosen;
  }
}
