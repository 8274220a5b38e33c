/**
 * Errors raised while resolving.
 */

/** No provider is registered for a token. */
export class MissingProviderError extends Error {
  constructor(readonly tokenName: string, readonly path: string[]) {
    super(`no provider for ${tokenName}` + (path.length ? ` (needed by ${path.join(" -> ")})` : ""));
    this.name = "MissingProviderError";
  }
}

/** Resolving a token needed itself. */
export class CircularDependencyError extends Error {
  constructor(readonly path: string[]) {
    super(`circular dependency: ${path.join(" -> ")}`);
    this.name = "CircularDependencyError";
  }
}
