/** Tokens of `serve --http`: the token file, session shares, Bearer and Basic, reset rates. */
import assert from "node:assert/strict";
import { admitReset, Auth, newToken, parseTokenFile } from "../../src/serve/auth.ts";
import { UsageError } from "../../src/errors.ts";

const A = "a".repeat(32);
const B = "b".repeat(32);
const LIMITS = { maxEpisodes: 10, maxBodyBytes: 1000 };

Deno.test("parseTokenFile() reads tokens with their settings and refuses what it cannot use", () => {
  const specs = parseTokenFile(
    `# comment\n\n${A} name=a sessions=3 resets=60 body=500\n${B} role=observe\n`,
    "tokens",
  );
  assert.deepEqual(specs, [
    { token: A, role: "drive", name: "a", sessions: 3, resetsPerMinute: 60, bodyBytes: 500 },
    { token: B, role: "observe" },
  ]);
  assert.throws(() => parseTokenFile("short\n", "tokens"), /16 to 256 characters/);
  assert.throws(() => parseTokenFile(`${A} role=admin\n`, "tokens"), /role is drive or observe/);
  assert.throws(() => parseTokenFile(`${A} sessions=x\n`, "tokens"), /expected sessions=N/);
  assert.throws(() => parseTokenFile(`${A}\n${A}\n`, "tokens"), /same token/);
  assert.throws(() => parseTokenFile("# none\n", "tokens"), UsageError);
  assert.match(newToken(), /^[0-9a-f]{64}$/);
});

Deno.test("Auth.of() reserves explicit session slots, splits the rest, refuses too many", () => {
  const C = "c".repeat(32);
  const auth = Auth.of(parseTokenFile(`${A} sessions=4\n${B}\n${C}\n`, "t"), LIMITS);
  assert.deepEqual(auth.principals.map((p) => p.limits.sessions), [4, 3, 3]);
  assert.throws(
    () => Auth.of(parseTokenFile(`${A} sessions=8\n${B} sessions=3\n`, "t"), LIMITS),
    /add up to 11/,
  );
  const observer = Auth.of(parseTokenFile(`${A} role=observe\n`, "t"), LIMITS);
  assert.equal(observer.principals[0].limits.sessions, 0);
});

Deno.test("Auth.authenticate() takes Bearer and Basic (password, else user) and nothing else", () => {
  const auth = Auth.of(parseTokenFile(`${A} name=a\n${B} name=b\n`, "t"), LIMITS);
  assert.equal(auth.authenticate(`Bearer ${A}`)?.name, "a");
  assert.equal(auth.authenticate(`Basic ${btoa(`patchgym:${B}`)}`)?.name, "b");
  assert.equal(auth.authenticate(`Basic ${btoa(`${B}:`)}`)?.name, "b");
  assert.equal(auth.authenticate(`bearer ${A}`)?.name, "a");
  assert.equal(auth.authenticate(`Bearer ${A}x`), null);
  assert.equal(auth.authenticate(`Basic ${btoa(`${A}:wrong`)}`), null);
  assert.equal(auth.authenticate("Basic !!!"), null);
  assert.equal(auth.authenticate(`Token ${A}`), null);
  assert.equal(auth.authenticate(null), null);
  assert.equal(auth.required, true);
  assert.equal(Auth.none(LIMITS).authenticate(null)?.name, "anonymous");
});

Deno.test("admitReset() allows resets= per rolling minute and says when to retry", () => {
  const [p] = Auth.of(parseTokenFile(`${A} resets=2\n`, "t"), LIMITS).principals;
  assert.equal(admitReset(p, 0), null);
  assert.equal(admitReset(p, 10_000), null);
  assert.equal(admitReset(p, 30_000), 30);
  assert.equal(admitReset(p, 60_000), null);
});
