/**
 * Reading a commit's files out of a local git clone or mirror, for importing real SWE-bench
 * records. Only plumbing that runs no hooks, filters or repository-configured programs is used
 * (`rev-parse`, `ls-tree`, `cat-file --batch`), with system and global configuration ignored.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

/** Where the clone of `repo` ("owner/name") lives under `reposDir`, or null when none does. */
export function findClone(reposDir: string, repo: string): string | null {
  const [owner, name] = repo.split("/");
  const candidates = [
    join(reposDir, repo.replace("/", "__")),
    join(reposDir, owner ?? "", name ?? ""),
    join(reposDir, name ?? repo),
    join(reposDir, `${name ?? repo}.git`),
  ];
  return candidates.find((dir) => name !== undefined && existsSync(dir)) ?? null;
}

/** A regular file of a commit. */
export interface CommitFile {
  path: string;
  content: Uint8Array;
}

/** What reading a commit found: its regular files, and paths left out (symlinks, submodules). */
export interface CommitTree {
  files: CommitFile[];
  skipped: string[];
}

/** Why a commit could not be read: the message says what to do. */
export class GitReadError extends Error {}

/** Every regular file of `commit` in the clone at `clone`. */
export async function readCommit(clone: string, commit: string): Promise<CommitTree> {
  if (!/^[0-9a-f]{7,64}$/i.test(commit)) {
    throw new GitReadError(`base_commit "${commit}" is not a commit hash; give the full hash`);
  }
  const resolved = await git(clone, ["rev-parse", "--verify", "--quiet", `${commit}^{commit}`]);
  if (resolved.code !== 0) {
    throw new GitReadError(
      `commit "${commit}" is not in the clone "${clone}"; fetch it ("git -C ${clone} fetch origin ${commit}") or update the mirror`,
    );
  }
  const listing = await git(clone, ["ls-tree", "-r", "-z", "--full-tree", commit]);
  if (listing.code !== 0) {
    throw new GitReadError(`cannot list the files of "${commit}": ${text(listing.stderr).trim()}`);
  }
  const blobs: { path: string; sha: string }[] = [];
  const skipped: string[] = [];
  for (const entry of text(listing.stdout).split("\0")) {
    if (entry === "") continue;
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (!match) continue;
    const [, mode, type, sha, path] = match;
    if (type === "blob" && (mode === "100644" || mode === "100755")) blobs.push({ path, sha });
    else skipped.push(path);
  }
  const contents = await catBlobs(clone, blobs.map((b) => b.sha));
  return { files: blobs.map((b, i) => ({ path: b.path, content: contents[i] })), skipped };
}

/** Blob contents in order, through one `git cat-file --batch`. */
async function catBlobs(clone: string, shas: string[]): Promise<Uint8Array[]> {
  const child = command(clone, ["cat-file", "--batch"], true).spawn();
  const writer = child.stdin.getWriter();
  const output = child.output();
  await writer.write(new TextEncoder().encode(shas.map((s) => `${s}\n`).join("")));
  await writer.close();
  const { code, stdout, stderr } = await output;
  if (code !== 0) throw new GitReadError(`git cat-file failed: ${text(stderr).trim()}`);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const sha of shas) {
    const newline = stdout.indexOf(10, at);
    const header = text(stdout.subarray(at, newline));
    const size = Number(header.split(" ")[2]);
    if (!header.startsWith(sha) || !Number.isInteger(size)) {
      throw new GitReadError(`git cat-file gave an unexpected header "${header}" for ${sha}`);
    }
    out.push(stdout.slice(newline + 1, newline + 1 + size));
    at = newline + 1 + size + 1;
  }
  return out;
}

function command(clone: string, args: string[], stdin = false): Deno.Command {
  return new Deno.Command("git", {
    args: ["-c", "safe.directory=*", "-c", "core.fsmonitor=false", "-C", clone, ...args],
    clearEnv: true,
    env: {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      HOME: "/nonexistent",
      GIT_TERMINAL_PROMPT: "0",
    },
    stdin: stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  });
}

function git(clone: string, args: string[]): Promise<Deno.CommandOutput> {
  return command(clone, args).output();
}

/**
 * Run read-only git plumbing or porcelain (`log`, `diff`, `show`) in `clone` with system and global
 * configuration ignored; returns stdout, or throws {@linkcode GitReadError} with git's message.
 */
export async function gitText(clone: string, args: string[]): Promise<string> {
  const out = await git(clone, args);
  if (out.code !== 0) {
    throw new GitReadError(`git ${args[0]} failed in "${clone}": ${text(out.stderr).trim()}`);
  }
  return text(out.stdout);
}

function text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
