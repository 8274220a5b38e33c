/**
 * Signed queue messages. Anyone who can write to the Redis of a queue could otherwise add a job
 * (a worker runs it: a remote code execution) or a result (the run records it: a forged reward).
 * So every job and every result carries an HMAC-SHA256 over its content, its kind, the stream it
 * belongs to, a key id, a timestamp and a random nonce, with a key only the driver and its workers
 * hold (`--queue-key FILE` or `PATCHGYM_QUEUE_KEY`). A reader refuses a message that is unsigned,
 * signed with another key, altered, moved to another stream, too old, from too far in the future,
 * or a replay of one already seen.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { Buffer } from "node:buffer";
import { readFileSync, statSync } from "node:fs";
import { UsageError } from "../errors.ts";

/** The environment variable holding the key itself (instead of `--queue-key FILE`). */
export const QUEUE_KEY_ENV = "PATCHGYM_QUEUE_KEY";

/** Format of a signed message. */
export const SIGNED_FORMAT = "patchgym.signed.v1";

/** How old a message may be: jobs can wait long in a queue, and a resumed run reads old results. */
export const MAX_AGE_MS = 7 * 24 * 3600_000;

/** How far ahead of this machine's clock a message may be dated. */
export const MAX_SKEW_MS = 5 * 60_000;

/** A shared key and its id (the first 16 hex digits of its SHA-256: safe to show). */
export interface QueueKey {
  id: string;
  secret: Buffer;
}

/** Why a message was refused. */
export type Refusal = "unsigned" | "unknown_key" | "forged" | "expired" | "replayed" | "invalid";

/** A message on the wire: the content as text and what vouches for it. */
interface Envelope {
  format: typeof SIGNED_FORMAT;
  kid: string;
  ts: number;
  nonce: string;
  body: string;
  mac: string;
}

/** A key from its text (at least 32 characters; surrounding whitespace is not part of it). */
export function queueKey(text: string, source: string): QueueKey {
  const secret = text.trim();
  if (secret.length < 32) {
    throw new UsageError(
      `The queue key in ${source} is ${secret.length} characters; use at least 32 (e.g. "openssl rand -hex 32")`,
    );
  }
  return {
    id: createHash("sha256").update(secret).digest("hex").slice(0, 16),
    secret: Buffer.from(secret, "utf8"),
  };
}

/**
 * The queue key of `--queue-key FILE`, else of `PATCHGYM_QUEUE_KEY`; a {@linkcode UsageError}
 * that says how to make one when there is none.
 */
export function readQueueKey(file: string | undefined, env: string | undefined): QueueKey {
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw new UsageError(`--queue-key: cannot read "${file}": ${(error as Error).message}`);
    }
    if ((statSync(file).mode & 0o077) !== 0) {
      console.error(`warning: the queue key "${file}" can be read by other users; chmod 600 it`);
    }
    return queueKey(text, `"${file}"`);
  }
  if (env) return queueKey(env, QUEUE_KEY_ENV);
  throw new UsageError(
    `--queue needs the queue's signing key, the same on the driver and every worker: --queue-key FILE or ${QUEUE_KEY_ENV} (make one with "openssl rand -hex 32 > queue.key; chmod 600 queue.key")`,
  );
}

/** `value` as a signed message of `kind` for the stream `scope`. */
export function sign(
  key: QueueKey,
  kind: "job" | "result",
  scope: string,
  value: unknown,
  now = Date.now(),
): string {
  const body = JSON.stringify(value);
  const ts = now;
  const nonce = crypto.randomUUID();
  const envelope: Envelope = {
    format: SIGNED_FORMAT,
    kid: key.id,
    ts,
    nonce,
    body,
    mac: mac(key, kind, scope, key.id, ts, nonce, body),
  };
  return JSON.stringify(envelope);
}

/** A message checked: its content and nonce, or why it is refused. */
export type Verified =
  | { ok: true; value: unknown; nonce: string; ts: number }
  | { ok: false; reason: Refusal; message: string };

/**
 * Check a message of `kind` read from the stream `scope` (replays are the caller's to check, by
 * nonce: the same message may be redelivered on purpose).
 */
export function verify(
  key: QueueKey,
  kind: "job" | "result",
  scope: string,
  text: string,
  now = Date.now(),
): Verified {
  let envelope: Partial<Envelope>;
  try {
    envelope = JSON.parse(text);
  } catch {
    return refused("unsigned", "not a signed message (not JSON)");
  }
  if (typeof envelope !== "object" || envelope === null || envelope.format !== SIGNED_FORMAT) {
    return refused("unsigned", "not a signed message");
  }
  const { kid, ts, nonce, body, mac: given } = envelope;
  if (
    typeof kid !== "string" || typeof ts !== "number" || typeof nonce !== "string" ||
    typeof body !== "string" || typeof given !== "string" || !/^[0-9a-f]{64}$/.test(given)
  ) {
    return refused("unsigned", "a signed message's fields are missing");
  }
  if (kid !== key.id) {
    return refused("unknown_key", `signed with key "${kid}", not this queue's "${key.id}"`);
  }
  const expected = Buffer.from(mac(key, kind, scope, kid, ts, nonce, body), "hex");
  if (!timingSafeEqual(expected, Buffer.from(given, "hex"))) {
    return refused("forged", "its signature does not match its content");
  }
  if (now - ts > MAX_AGE_MS || ts - now > MAX_SKEW_MS) {
    return refused("expired", `dated ${new Date(ts).toISOString()}, outside the accepted window`);
  }
  try {
    return { ok: true, value: JSON.parse(body), nonce, ts };
  } catch {
    return refused("invalid", "its signed content is not JSON");
  }
}

function refused(reason: Refusal, message: string): Verified {
  return { ok: false, reason, message };
}

function mac(
  key: QueueKey,
  kind: string,
  scope: string,
  kid: string,
  ts: number,
  nonce: string,
  body: string,
): string {
  return createHmac("sha256", key.secret)
    .update([SIGNED_FORMAT, kind, scope, kid, String(ts), nonce, body].join("\n"))
    .digest("hex");
}
