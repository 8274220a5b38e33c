/**
 * Search-box autocomplete. Terms are stored in a prefix tree keyed by their normalized
 * form; suggestions for a prefix are ranked by weight (how often the term was picked),
 * then by how recently it was used, then shorter terms first, then alphabetically.
 */
import { normalizeTerm } from "./normalize.ts";

/** A stored term. `display` keeps the original spelling for the UI. */
export interface Suggestion {
  display: string;
  weight: number;
  /** Logical clock value of the last use; 0 when never used. */
  lastUsed: number;
}

interface Node {
  children: Map<string, Node>;
  entry?: Suggestion;
}

export class Autocomplete {
  #root: Node = { children: new Map() };
  #size = 0;
  #clock = 0;

  /** Adds a term (or raises its weight if it exists). */
  add(term: string, weight = 1): void {
    const key = normalizeTerm(term);
    if (key === "") return;
    let node = this.#root;
    for (const ch of key) {
      let next = node.children.get(ch);
      if (!next) {
        next = { children: new Map() };
        node.children.set(ch, next);
      }
      node = next;
    }
    if (node.entry) node.entry.weight += weight;
    else {
      node.entry = { display: term.trim(), weight, lastUsed: 0 };
      this.#size++;
    }
  }

  /** Removes a term; returns false when it was not stored. */
  remove(term: string): boolean {
    const key = normalizeTerm(term);
    const path: [Node, string][] = [];
    let node = this.#root;
    for (const ch of key) {
      const next = node.children.get(ch);
      if (!next) return false;
      path.push([node, ch]);
      node = next;
    }
    if (!node.entry) return false;
    node.entry = undefined;
    this.#size--;
    // Prune branches that no longer lead to any entry.
    for (let i = path.length - 1; i >= 0; i--) {
      const [parent, ch] = path[i];
      const child = parent.children.get(ch)!;
      if (child.entry || child.children.size > 0) break;
      parent.children.delete(ch);
    }
    return true;
  }

  /** Records that the user picked `term`: its weight grows and it becomes most recent. */
  pick(term: string): void {
    const key = normalizeTerm(term);
    let node: Node | undefined = this.#root;
    for (const ch of key) {
      node = node.children.get(ch);
      if (!node) return;
    }
    if (!node.entry) return;
    node.entry.weight += 1;
    node.entry.lastUsed = ++this.#clock;
  }

  get size(): number {
    return this.#size;
  }

  /** The best `limit` suggestions for `prefix` (all terms for an empty prefix). */
  suggest(prefix: string, limit = 5): string[] {
    const key = normalizeTerm(prefix);
    let node: Node | undefined = this.#root;
    for (const ch of key) {
      node = node.children.get(ch);
      if (!node) return [];
    }
    const found: Suggestion[] = [];
    const stack: Node[] = [node];
    while (stack.length > 0) {
      const current = stack.pop()!;
      if (current.entry) found.push(current.entry);
      for (const child of current.children.values()) stack.push(child);
    }
    found.sort((a, b) =>
      b.weight - a.weight ||
      b.lastUsed - a.lastUsed ||
      a.display.length - b.display.length ||
      (a.display < b.display ? -1 : a.display > b.display ? 1 : 0)
    );
    return found.slice(0, limit).map((s) => s.display);
  }

  /**
   * Suggestions for each word typed so far, for multi-word search boxes: "new yo" suggests
   * for "new yo" first and then falls back to the last word "yo".
   */
  suggestLastWord(input: string, limit = 5): string[] {
    const whole = this.suggest(input, limit);
    const words = normalizeTerm(input).split(" ");
    if (whole.length >= limit || words.length < 2) return whole;
    const key = words[words.length - 1];
    let node: Node | undefined = this.#root;
    for (const ch of key) {
      node = node.children.get(ch);
      if (!node) return whole;
    }
    const found: Suggestion[] = [];
    const stack: Node[] = [node];
    while (stack.length > 0) {
      const current = stack.pop()!;
      if (current.entry) found.push(current.entry);
      for (const child of current.children.values()) stack.push(child);
    }
    found.sort((a, b) =>
      b.weight - a.weight ||
      b.lastUsed - a.lastUsed ||
      a.display.length - b.display.length ||
      (a.display < b.display ? -1 : a.display > b.display ? 1 : 0)
    );
    const extra = found.map((s) => s.display).filter((d) => !whole.includes(d));
    return [...whole, ...extra].slice(0, limit);
  }
}
