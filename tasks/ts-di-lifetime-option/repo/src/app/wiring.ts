/**
 * The application's object graph.
 */
import { Container, token } from "../di/mod.ts";
import { type Config, DEFAULT_CONFIG } from "./config.ts";
import { MemoryLogger } from "./logger.ts";
import { RequestContext } from "./request_context.ts";
import { UserRepository } from "./user_repository.ts";
import { UserService } from "./user_service.ts";

export const CONFIG = token<Config>("config");
export const LOGGER = token<MemoryLogger>("logger");
export const USERS = token<UserRepository>("users");
export const REQUEST = token<RequestContext>("request");
export const USER_SERVICE = token<UserService>("userService");

/** Builds the root container. */
export function buildContainer(config: Config = DEFAULT_CONFIG): Container {
  return new Container()
    .value(CONFIG, config)
    .register(LOGGER, (c) => new MemoryLogger(c.resolve(CONFIG)), { singleton: true })
    .register(USERS, () => new UserRepository(), { singleton: true })
    .register(REQUEST, () => new RequestContext(), { perScope: true })
    .register(USER_SERVICE, (c) => new UserService(c.resolve(USERS), c.resolve(LOGGER), c.resolve(REQUEST)), { perScope: true });
}
