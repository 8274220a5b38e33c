/**
 * Deterministic seed data for the fake server.
 */

/** A user record. */
export interface User {
  id: number;
  name: string;
  team: string;
}

/** An audit event record. */
export interface AuditEvent {
  id: string;
  at: string;
  action: string;
}

const TEAMS = ["core", "web", "data"];

/** `count` users with ids 1..count. */
export function makeUsers(count: number): User[] {
  return Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `user${i + 1}`, team: TEAMS[i % TEAMS.length] }));
}

/** `count` events, one per minute from 2024-01-01T00:00Z, ids `evt_0001`, ... */
export function makeEvents(count: number): AuditEvent[] {
  const base = Date.UTC(2024, 0, 1);
  return Array.from({ length: count }, (_, i) => ({
    id: `evt_${String(i + 1).padStart(4, "0")}`,
    at: new Date(base + i * 60_000).toISOString(),
    action: i % 2 === 0 ? "login" : "logout",
  }));
}
