/** Dependency injection. */
export { Token, token } from "./token.ts";
export { CircularDependencyError, MissingProviderError } from "./errors.ts";
export { Container } from "./container.ts";
export type { Factory, RegisterOptions } from "./container.ts";
