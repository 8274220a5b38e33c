/**
 * wirekit: a small DI container, plus the example accounts app wired with it.
 */
export * from "./di/mod.ts";
export { buildContainer, CONFIG, LOGGER, REQUEST, USER_SERVICE, USERS } from "./app/wiring.ts";
