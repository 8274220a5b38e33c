/**
 * Typed injection tokens. A token carries the type of what it resolves to, so `resolve(LOGGER)`
 * is typed without casts.
 */

/** A typed key for the container. */
export class Token<T> {
  /** Phantom field that carries `T`; never set. */
  declare readonly __type?: T;
  constructor(readonly name: string) {}

  toString(): string {
    return `Token(${this.name})`;
  }
}

/** Creates a token. */
export function token<T>(name: string): Token<T> {
  return new Token<T>(name);
}
