/**
 * The stack of views a template is rendered against. Sections push the
 * current item; names resolve against the innermost view that defines them,
 * so inner items shadow outer names.
 */

function hasProperty(view: unknown, key: string): boolean {
  return view !== null && typeof view === "object" && key in view;
}

export class Context {
  private constructor(private readonly stack: readonly unknown[]) {}

  static root(view: unknown): Context {
    return new Context([view]);
  }

  /** A child context with `view` as the innermost view. */
  push(view: unknown): Context {
    return new Context([...this.stack, view]);
  }

  /**
   * Resolve a name: "." is the innermost view; for "a.b.c" the first segment
   * is looked up from the innermost view outwards, the rest strictly inside it.
   */
  lookup(name: string): unknown {
    if (name === ".") return this.stack[this.stack.length - 1];
    const [head, ...rest] = name.split(".");
    let value: unknown = undefined;
    for (let i = 0; i < this.stack.length; i++) {
      if (hasProperty(this.stack[i], head)) {
        value = (this.stack[i] as Record<string, unknown>)[head];
        break;
      }
    }
    for (const key of rest) {
      if (!hasProperty(value, key)) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    return value;
  }
}
