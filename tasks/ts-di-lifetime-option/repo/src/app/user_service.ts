/**
 * Sign-up logic.
 */
import type { MemoryLogger } from "./logger.ts";
import type { RequestContext } from "./request_context.ts";
import type { UserRecord, UserRepository } from "./user_repository.ts";

/** Registers users; one instance per request. */
export class UserService {
  constructor(readonly repo: UserRepository, readonly logger: MemoryLogger, readonly context: RequestContext) {}

  signUp(email: string): UserRecord {
    if (this.repo.findByEmail(email)) throw new Error(`${email} is already registered`);
    const user = this.repo.add(email);
    this.logger.log("info", `${this.context.requestId} signed up ${email}`);
    return user;
  }
}
