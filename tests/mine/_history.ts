/**
 * A small git history written for these tests, over the `shelfcount` project of
 * `tests/env/_fixture.ts`: the first commit has an off-by-one bug in `total()`, a later commit
 * fixes it and adds a test, one commit adds a feature with a test reading test data, and two
 * commits are not candidates (a README change; a code change without tests).
 */
import { join } from "node:path";
import { projectFiles, writeFiles } from "../env/_fixture.ts";

/** Run git in `dir` as a fixed author, without the machine's configuration; returns stdout. */
export async function git(dir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-C", dir, ...args],
    env: {
      GIT_AUTHOR_NAME: "Test",
      GIT_AUTHOR_EMAIL: "test@example.com",
      GIT_COMMITTER_NAME: "Test",
      GIT_COMMITTER_EMAIL: "test@example.com",
      GIT_CONFIG_GLOBAL: "/dev/null",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

/** Write `files` into `dir` and commit everything; returns the commit's hash. */
export async function commit(
  dir: string,
  message: string,
  files: Record<string, string>,
): Promise<string> {
  await writeFiles(dir, files);
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", message);
  return await git(dir, "rev-parse", "HEAD");
}

/** The commits of the history by role. */
export interface History {
  dir: string;
  fix: string;
  feature: string;
  docs: string;
  untested: string;
}

/** Write the history into `dir` (a new repository). */
export async function writeHistory(dir: string): Promise<History> {
  await Deno.mkdir(dir, { recursive: true });
  await git(dir, "init", "-q", "-b", "main");
  const files = projectFiles({ bug: true });
  await commit(dir, "Start shelfcount", files);
  const fix = await commit(
    dir,
    "Count the first shelf in total()\n\nThe total of a list of shelves left out the first one.",
    {
      "src/shelfcount/inventory.py": projectFiles()["src/shelfcount/inventory.py"],
      "tests/test_inventory.py": files["tests/test_inventory.py"] +
        '\n\ndef test_total():\n    assert total([Shelf("a", 2), Shelf("b", 5)]) == 7\n',
    },
  );
  const docs = await commit(dir, "Describe the project", { "README.md": "# shelfcount\n" });
  const feature = await commit(dir, "Load shelves from JSON files", {
    "src/shelfcount/loading.py": `import json

from .inventory import Shelf


def load(path):
    with open(path) as f:
        return [Shelf(row["label"], row["count"]) for row in json.load(f)]
`,
    "tests/data/shelves.json": '[{"label": "a", "count": 4}, {"label": "b", "count": 0}]\n',
    "tests/test_loading.py": `import pathlib

from shelfcount.inventory import emptiest
from shelfcount.loading import load

DATA = pathlib.Path(__file__).parent / "data" / "shelves.json"


def test_load_reads_every_shelf():
    assert [s.label for s in load(DATA)] == ["a", "b"]


def test_load_then_emptiest():
    assert emptiest(load(DATA)) == "b"
`,
  });
  const untested = await commit(dir, "Tidy up", {
    "src/shelfcount/__init__.py": '"""Counting what is on the shelves, one shelf at a time."""\n',
  });
  return { dir, fix, feature, docs, untested };
}

/** Every ref, reflog and remote name in a folder, to show a workspace has none. */
export function gitMetadata(dir: string): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.name === ".git") found.push(join(dir, entry.name));
  }
  return found;
}
