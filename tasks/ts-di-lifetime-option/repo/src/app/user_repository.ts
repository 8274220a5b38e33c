/**
 * In-memory user storage.
 */

/** A stored user. */
export interface UserRecord {
  id: number;
  email: string;
}

/** Stores users; shared by the whole app. */
export class UserRepository {
  #users: UserRecord[] = [];

  add(email: string): UserRecord {
    const user = { id: this.#users.length + 1, email };
    this.#users.push(user);
    return user;
  }

  findByEmail(email: string): UserRecord | undefined {
    return this.#users.find((u) => u.email === email);
  }
}
