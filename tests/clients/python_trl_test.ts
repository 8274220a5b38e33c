/**
 * Two real GRPO steps with TRL on CPU in both modes (clients/python/tests/test_trl.py), run with
 * the Python of the venv named by PATCHGYM_TEST_VENV (`bash .ci/run` makes it and installs TRL
 * from the local wheel store). Without that venv the test is skipped with one note.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { childEnv, launcherArgv, ROOT } from "../cli/_run.ts";
import { TRAINER_VENV, writeQwen3Tokenizer } from "../_venv.ts";
import { join } from "node:path";

TRAINER_VENV.noteSkip("clients/python TRL test");

Deno.test({
  name: "clients/python: TRL trains two GRPO steps on patchgym tasks in both modes",
  ignore: TRAINER_VENV.skip !== null,
  async fn() {
    const tokenizer = mkdtempSync(join(tmpdir(), "patchgym-qwen3-tokenizer-"));
    const pytestTemp = mkdtempSync(join(tmpdir(), "patchgym-trl-pytest-"));
    try {
      writeQwen3Tokenizer(tokenizer);
      const { code, stdout, stderr } = await new Deno.Command(TRAINER_VENV.python, {
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
