/**
 * Who may call `serve --http`: bearer tokens, each with a role and its own quotas. A request
 * carries its token as `Authorization: Bearer TOKEN` or as HTTP Basic with the token as the
 * password (any user name), which is what clients send for credentials written in the URL
 * (`http://patchgym:TOKEN@host:port`: Python's `websockets`, `httpx`, `requests`, `urllib`).
 * Tokens are compared in constant time, against every known token (no early exit).
 *
 * A token file holds one token per line, optionally followed by `key=value` settings:
 *
 *   # trainer A: at most 64 episodes open, 600 resets a minute, bodies up to 4 MiB
 *   3f9c...e1 name=trainer-a sessions=64 resets=600 body=4194304
 *   77aa...0b name=dashboard role=observe
 *
 * `role=drive` (the default) may open and step episodes; `role=observe` may only read (`/tasks`,
 * `/state`, `/metrics`). Session slots are reserved per driving token: explicit `sessions=` first,
 * then the rest of `--max-episodes` split evenly among the tokens that name none, so one token can
 * never take the slots another was given.
 */
import type { Buffer } from "node:buffer";
import { createHash, timingSafeEqual } from "node:crypto";
import { UsageError } from "../errors.ts";

/** What a token may do. */
export type Role = "drive" | "observe";

/** The quotas of one token. */
export interface TokenLimits {
  /** Episodes open at once (and WebSocket connections open at once). */
  sessions: number;
  /** Resets (new episodes) per rolling minute; 0: no limit. */
  resetsPerMinute: number;
  /** Largest request body or WebSocket message, bytes. */
  bodyBytes: number;
}

/** A token as read from a token file. */
export interface TokenSpec {
  token: string;
  name?: string;
  role: Role;
  sessions?: number;
  resetsPerMinute?: number;
  bodyBytes?: number;
}

/** An authenticated caller: one token's identity, limits and running counts. */
export interface Principal {
  /** The token's name (`name=`), or `token-N` by its line. Never the token itself. */
  name: string;
  role: Role;
  limits: TokenLimits;
  /** Times (ms, the front's clock) of its resets in the last minute. */
  resets: number[];
  /** Its WebSocket connections open now. */
  connections: number;
}

/** Characters a token may hold: safe in a URL's user info without escaping. */
const TOKEN_RE = /^[A-Za-z0-9._~-]{16,256}$/;

/** A fresh random token: 32 bytes, hex. */
export function newToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(32)))
    .map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Parse a token file's text (`source` names it in errors). */
export function parseTokenFile(text: string, source: string): TokenSpec[] {
  const specs: TokenSpec[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const [token, ...settings] = line.split(/\s+/);
    const where = `${source} line ${index + 1}`;
    if (!TOKEN_RE.test(token)) {
      throw new UsageError(
        `Cannot use the token on ${where}: a token is 16 to 256 characters of A-Z a-z 0-9 . _ ~ -; make one with "openssl rand -hex 32"`,
      );
    }
    const spec: TokenSpec = { token, role: "drive" };
    for (const setting of settings) {
      const [key, value] = setting.split("=", 2);
      const count = () => {
        if (!/^\d{1,12}$/.test(value ?? "")) {
          throw new UsageError(`Cannot read "${setting}" on ${where}: expected ${key}=N`);
        }
        return Number(value);
      };
      switch (key) {
        case "name":
          spec.name = value;
          break;
        case "role":
          if (value !== "drive" && value !== "observe") {
            throw new UsageError(`Cannot read "${setting}" on ${where}: role is drive or observe`);
          }
          spec.role = value;
          break;
        case "sessions":
          spec.sessions = count();
          break;
        case "resets":
          spec.resetsPerMinute = count();
          break;
        case "body":
          spec.bodyBytes = count();
          break;
        default:
          throw new UsageError(
            `Cannot read "${setting}" on ${where}: settings are name=, role=, sessions=, resets=, body=`,
          );
      }
    }
    if (specs.some((s) => s.token === token)) {
      throw new UsageError(`Cannot use ${where}: the same token is on an earlier line`);
    }
    specs.push(spec);
  }
  if (specs.length === 0) {
    throw new UsageError(`No token in ${source}: write one token per line`);
  }
  return specs;
}

/** The tokens a server accepts, or none at all (`--no-auth`, loopback only). */
export class Auth {
  readonly #entries: { digest: Buffer; principal: Principal }[];
  /** The caller of a server without authentication. */
  readonly #anonymous: Principal | null;

  private constructor(
    entries: { digest: Buffer; principal: Principal }[],
    anonymous: Principal | null,
  ) {
    this.#entries = entries;
    this.#anonymous = anonymous;
  }

  /**
   * The tokens of `specs`, with session slots reserved per driving token out of `maxEpisodes`
   * (see the module's comment); throws {@linkcode UsageError} when explicit ones add up to more.
   */
  static of(specs: TokenSpec[], defaults: { maxEpisodes: number; maxBodyBytes: number }): Auth {
    const drivers = specs.filter((s) => s.role === "drive");
    const explicit = drivers.reduce((n, s) => n + (s.sessions ?? 0), 0);
    const unset = drivers.filter((s) => s.sessions === undefined).length;
    if (explicit > defaults.maxEpisodes || (unset > 0 && explicit + unset > defaults.maxEpisodes)) {
      throw new UsageError(
        `The tokens' sessions= add up to ${explicit}${
          unset ? ` plus ${unset} token(s) without sessions=` : ""
        }, more than --max-episodes ${defaults.maxEpisodes}; raise --max-episodes or lower sessions=`,
      );
    }
    const share = unset > 0 ? Math.floor((defaults.maxEpisodes - explicit) / unset) : 0;
    const entries = specs.map((spec, i) => ({
      digest: digest(spec.token),
      principal: {
        name: spec.name ?? `token-${i + 1}`,
        role: spec.role,
        limits: {
          sessions: spec.role === "observe" ? 0 : spec.sessions ?? share,
          resetsPerMinute: spec.resetsPerMinute ?? 0,
          bodyBytes: Math.min(spec.bodyBytes ?? defaults.maxBodyBytes, defaults.maxBodyBytes),
        },
        resets: [],
        connections: 0,
      },
    }));
    // A token's name owns its episodes: two tokens of one name would share them.
    const names = new Set<string>();
    for (const { principal } of entries) {
      if (names.has(principal.name)) {
        throw new UsageError(
          `Two tokens are named "${principal.name}": each token needs its own name= (its episodes are its own by name)`,
        );
      }
      names.add(principal.name);
    }
    return new Auth(entries, null);
  }

  /** No authentication: every caller is one anonymous driver with the server's whole limits. */
  static none(defaults: { maxEpisodes: number; maxBodyBytes: number }): Auth {
    return new Auth([], {
      name: "anonymous",
      role: "drive",
      limits: {
        sessions: defaults.maxEpisodes,
        resetsPerMinute: 0,
        bodyBytes: defaults.maxBodyBytes,
      },
      resets: [],
      connections: 0,
    });
  }

  /** Whether requests need a token. */
  get required(): boolean {
    return this.#anonymous === null;
  }

  /** Every known caller (for `/metrics`). */
  get principals(): Principal[] {
    return this.#anonymous ? [this.#anonymous] : this.#entries.map((e) => e.principal);
  }

  /** The caller a request's `Authorization` header proves, or null. */
  authenticate(authorization: string | null): Principal | null {
    if (this.#anonymous) return this.#anonymous;
    const token = tokenOf(authorization);
    if (token === null) return null;
    const given = digest(token);
    let found: Principal | null = null;
    // Every entry is compared, whatever matched, so the time does not tell which one did.
    for (const entry of this.#entries) {
      if (timingSafeEqual(entry.digest, given)) found = entry.principal;
    }
    return found;
  }
}

/**
 * Count a reset against `principal`'s resets per minute at time `now` (ms); answers null when it
 * may go ahead, else the seconds to wait.
 */
export function admitReset(principal: Principal, now: number): number | null {
  const limit = principal.limits.resetsPerMinute;
  if (limit <= 0) return null;
  while (principal.resets.length > 0 && now - principal.resets[0] >= 60_000) {
    principal.resets.shift();
  }
  if (principal.resets.length >= limit) {
    return Math.max(1, Math.ceil((principal.resets[0] + 60_000 - now) / 1000));
  }
  principal.resets.push(now);
  return null;
}

/** The token of a `Bearer` or `Basic` (password, else user name) Authorization header. */
function tokenOf(authorization: string | null): string | null {
  if (!authorization) return null;
  const [scheme, value] = authorization.trim().split(/\s+/, 2);
  if (!value) return null;
  if (scheme.toLowerCase() === "bearer") return value;
  if (scheme.toLowerCase() !== "basic") return null;
  let decoded: string;
  try {
    decoded = new TextDecoder().decode(Uint8Array.from(atob(value), (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) return decoded;
  const password = decoded.slice(colon + 1);
  return password !== "" ? password : decoded.slice(0, colon);
}

function digest(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}
