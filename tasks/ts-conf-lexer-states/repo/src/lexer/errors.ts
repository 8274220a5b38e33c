/** A syntax error at a 1-based line and column. */
export class ConfSyntaxError extends Error {
  constructor(readonly reason: string, readonly line: number, readonly col: number) {
    super(`${line}:${col}: ${reason}`);
    this.name = "ConfSyntaxError";
  }
}
