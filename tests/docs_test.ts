/**
 * The manual's commands and links stay true: every `deno task ...` and `patchgym ...` command in a
 * shell block of README.md or docs/*.md parses with the CLI's own parser (an unknown command or
 * flag fails), and every relative link and repository path it names exists.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { parseBenchArgs } from "../bench/main.ts";
import { runCli } from "../src/cli/main.ts";
import { capture } from "./cli/_capture.ts";

const ROOT = join(import.meta.dirname!, "..");
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
];
const DENO_TASKS = Object.keys(
  JSON.parse(readFileSync(join(ROOT, "deno.json"), "utf8")).tasks as Record<string, string>,
);
const SHELL_LANGUAGES = new Set(["sh", "bash", "shell", "console"]);

/** One command found in a page, with where it was found. */
interface Command {
  page: string;
  line: number;
  text: string;
}

/** The commands of the shell blocks of `text`, continuation lines joined, comments dropped. */
function shellCommands(page: string, text: string): Command[] {
  const lines = text.split("\n");
  const commands: Command[] = [];
  let inShell = false;
  let inFence = false;
  let pending: Command | null = null;
  lines.forEach((raw, index) => {
    const fence = /^\s*```(\S*)/.exec(raw);
    if (fence) {
      inShell = !inFence && SHELL_LANGUAGES.has(fence[1]);
      inFence = !inFence;
      return;
    }
    if (!inShell) return;
    const line = withoutComment(raw).trim();
    if (pending) pending.text += " " + line.replace(/\\$/, "").trim();
    else if (line) pending = { page, line: index + 1, text: line.replace(/\\$/, "").trim() };
    if (pending && !line.endsWith("\\")) {
      commands.push(pending);
      pending = null;
    }
  });
  return commands;
}

/** The `deno task ...` commands written inline in the prose of `text`, outside code blocks. */
function inlineCommands(page: string, text: string): Command[] {
  const commands: Command[] = [];
  let inFence = false;
  text.split("\n").forEach((line, index) => {
    if (/^\s*```/.test(line)) inFence = !inFence;
    if (inFence) return;
    for (const [, code] of line.matchAll(/`(deno task [^`]+)`/g)) {
      // A template such as `deno task patchgym <command>` or `... patchgym ...` is no command.
      if (!/\.\.\.|<\w+>/.test(code)) commands.push({ page, line: index + 1, text: code });
    }
  });
  return commands;
}

/** `line` without a `# comment` that starts outside quotes. */
function withoutComment(line: string): string {
  let quote = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(line[i - 1]))) return line.slice(0, i);
  }
  return line;
}

/** Shell words of `text`: whitespace-separated, single and double quotes removed. */
function words(text: string): string[] {
  const out: string[] = [];
  let word: string | null = null;
  let quote = "";
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = "";
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (/\s/.test(c)) {
      if (word !== null) out.push(word);
      word = null;
    } else word = (word ?? "") + c;
  }
  if (word !== null) out.push(word);
  return out;
}

/**
 * The patchgym argument list a command line runs, `[]` for a command that runs no patchgym (pip,
 * python, vllm, ...), or an error for a `deno task` that does not exist.
 */
function patchgymArgs(text: string): { args: string[] } | { error: string } | null {
  let argv = words(text);
  while (argv.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(argv[0])) argv = argv.slice(1);
  if (argv[0] === "npx" && argv[1] === "-y" && argv[2]?.startsWith("deno@")) {
    argv = ["deno", ...argv.slice(3)];
  }
  if (argv[0] === "patchgym" || argv[0] === "dist/patchgym") return { args: argv.slice(1) };
  if (argv[0] !== "deno") return null;
  if (argv[1] === "run") {
    const main = argv.findIndex((w) => w === "main.ts" || w.endsWith("/main.ts"));
    return main < 0 ? null : { args: argv.slice(main + 1) };
  }
  if (argv[1] !== "task") return null;
  let rest = argv.slice(2);
  while (rest[0]?.startsWith("-")) rest = rest.slice(rest[0] === "--config" ? 2 : 1);
  const [task, ...args] = rest;
  if (!DENO_TASKS.includes(task)) return { error: `deno task "${task}" is not in deno.json` };
  if (task === "patchgym") return { args };
  if (task === "rollout" || task === "validate") return { args: [task, ...args] };
  if (task === "serve") return { args: ["serve", "--stdio", ...args] };
  if (task === "test") {
    const paths = args.filter((a) => a.endsWith(".ts") || a.endsWith("/"));
    const missing = paths.filter((a) => !existsSync(join(ROOT, a)));
    return missing.length ? { error: `deno task test: no such path ${missing.join(", ")}` } : null;
  }
  if (task === "bench") {
    try {
      parseBenchArgs(args);
      return null;
    } catch (error) {
      return { error: `deno task bench: ${(error as Error).message}` };
    }
  }
  return args.length ? { error: `deno task ${task} takes no arguments` } : null;
}

/** Why the CLI's own parser refuses `args`, or null when it accepts them. */
async function parserRefusal(args: string[]): Promise<string | null> {
  if (args.length === 0) return null;
  // Each command parses its flags strictly before it looks at --help, so a command line with
  // --help appended is checked by the command's own parser and then runs nothing.
  const result = await capture(() => runCli([...args, "--help"]));
  return result.code === 0 ? null : result.err || `exit ${result.code}`;
}

Deno.test("README.md and docs/ show only commands the CLI's parser accepts", async () => {
  const commands = PAGES.flatMap((page) => {
    const text = readFileSync(join(ROOT, page), "utf8");
    return [...shellCommands(page, text), ...inlineCommands(page, text)];
  });
  let checked = 0;
  const problems: string[] = [];
  for (const command of commands) {
    const found = patchgymArgs(command.text);
    if (!found) continue;
    checked++;
    const problem = "error" in found ? found.error : await parserRefusal(found.args);
    if (problem) problems.push(`${command.page}:${command.line}: ${command.text}\n  ${problem}`);
  }
  assert.deepEqual(problems, []);
  assert.ok(checked >= 30, `only ${checked} commands checked`);
});

Deno.test("patchgymArgs() maps deno tasks to the CLI and refuses a task deno.json lacks", () => {
  assert.deepEqual(patchgymArgs("deno task rollout --samples 2"), {
    args: ["rollout", "--samples", "2"],
  });
  assert.deepEqual(
    patchgymArgs("PATCHGYM_MODEL=m deno task --config /x/deno.json patchgym show runs/R"),
    { args: ["show", "runs/R"] },
  );
  assert.deepEqual(patchgymArgs("deno task serve"), { args: ["serve", "--stdio"] });
  assert.deepEqual(patchgymArgs("npx -y deno@2.9.6 task validate"), { args: ["validate"] });
  assert.ok("error" in patchgymArgs("deno task rollut")!);
  assert.equal(patchgymArgs("pip install ./clients/python"), null);
});

Deno.test("parserRefusal() refuses an unknown command and an unknown flag", async () => {
  assert.equal(await parserRefusal(["rollout", "--samples", "2"]), null);
  assert.match((await parserRefusal(["rollot"]))!, /Unknown command "rollot"/);
  assert.match((await parserRefusal(["rollout", "--sample", "2"]))!, /--sample/);
});

Deno.test("shellCommands() joins continuation lines and drops comments", () => {
  const text = "x\n```sh\ndeno task rollout \\\n  --samples 2   # two\n# only a comment\n```\n";
  const commands = shellCommands("page.md", text);
  assert.deepEqual(commands.map((c) => [c.line, c.text]), [[3, "deno task rollout --samples 2"]]);
});

Deno.test("README.md and docs/ link only to files and headings that exist", () => {
  const problems: string[] = [];
  for (const page of PAGES) {
    const text = readFileSync(join(ROOT, page), "utf8");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split("#");
      const file = path ? normalize(join(dirname(page), path)) : page;
      if (!existsSync(join(ROOT, file))) {
        problems.push(`${page}: link to missing ${target}`);
      } else if (anchor && !headingAnchors(file).includes(anchor)) {
        problems.push(`${page}: link to missing heading ${target}`);
      }
    }
    for (
      const [, path] of text.matchAll(/`((?:src|tests|examples|clients|scripts|bench)\/[\w./-]+)`/g)
    ) {
      if (!existsSync(join(ROOT, path))) problems.push(`${page}: names missing path ${path}`);
    }
  }
  assert.deepEqual(problems, []);
});

/** The anchors GitHub makes for the headings of a Markdown file. */
function headingAnchors(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(/^#+ (.*)$/gm)].map(([, heading]) =>
    heading.toLowerCase().replace(/[^\w\- ]/g, "").replace(/ /g, "-")
  );
}

Deno.test("README.md stays a front door: under 250 lines, set-up commands in its first screen", () => {
  const lines = readFileSync(join(ROOT, "README.md"), "utf8").split("\n");
  assert.ok(lines.length < 250, `README.md has ${lines.length} lines`);
  const firstScreen = lines.slice(0, 40).join("\n");
  assert.match(firstScreen, /^deno task rollout\b/m);
  assert.match(firstScreen, /^deno task test\b/m);
});

Deno.test("parseBenchArgs() names sections 1 to 6 when --only asks for another", () => {
  assert.throws(
    () => parseBenchArgs(["--only=7"]),
    { message: '--only: expected sections from 1 to 6, got "7"' },
  );
  assert.deepEqual(parseBenchArgs(["--only=6"]).only, ["6"]);
});
