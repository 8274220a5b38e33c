"""Two real GRPO steps with TRL on CPU, in both modes, through examples/trl/train_grpo.py.

Needs TRL (a venv made by .ci/run, run by tests/clients/python_trl_test.ts) and a Qwen3 tokenizer
folder in PATCHGYM_TEST_QWEN3_TOKENIZER; skipped otherwise. The model is a tiny random Qwen3,
which writes no tool calls, so its `generate` is wrapped to write a known plan turn by turn: the
reference solution's tool calls for the first sample of each group and a wrong patch for the
second. TRL parses those tool calls (or patchgym does, in rollout_func mode), patchgym runs them in
its jail and grades them, so each group has rewards 1 and 0 and non-zero advantages.
"""
import importlib.util
import json
import os
import re
import shlex
import shutil
import uuid

import pytest

trl = pytest.importorskip("trl", reason="TRL is not installed here (bash .ci/run makes a venv with it)")
import torch  # noqa: E402
from transformers.utils import get_json_schema  # noqa: E402

from conftest import ROOT, serve_argv  # noqa: E402

TOKENIZER = os.environ.get("PATCHGYM_TEST_QWEN3_TOKENIZER")
TASKS = ["py-median-even", "py-csv-report-negatives"]
WRONG_FILE = "NOTES_wrong_attempt.md"
WRONG_PATCH = f"--- /dev/null\n+++ b/{WRONG_FILE}\n@@ -0,0 +1 @@\n+Looked around; nothing fixed.\n"

pytestmark = pytest.mark.skipif(not TOKENIZER, reason="PATCHGYM_TEST_QWEN3_TOKENIZER is not set")


def load_example():
    path = os.path.join(ROOT, "examples", "trl", "train_grpo.py")
    spec = importlib.util.spec_from_file_location("train_grpo", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def solution(task_id):
    with open(os.path.join(ROOT, "tasks", task_id, "solution.patch"), encoding="utf-8") as f:
        return f.read()


def call(name, arguments):
    return "<tool_call>\n" + json.dumps({"name": name, "arguments": arguments}) + "\n</tool_call>"


def plan(task_id, good):
    """The text of each turn: tool calls, then a reply without one (TRL's loop ends there)."""
    patch = solution(task_id) if good else WRONG_PATCH
    status = "solved" if good else "blocked"
    return [
        call("apply_patch", {"patch": patch}),
        call("run_tests", {}),
        call("submit", {"status": status, "summary": "Done"}),
        "I am done.",
    ]


class ForcedGenerate:
    """Wraps `model.generate`: each prompt row gets the next turn of its plan plus `<|im_end|>`.

    A row's plan follows from its text: the wrong patch's file name in it means the wrong plan;
    on the first turn (no assistant turn yet) identical prompts are numbered in batch order, so
    the first of a group solves and the second does not. The turn is the number of assistant
    turns already in the prompt."""

    def __init__(self, model, tokenizer):
        self.original = model.generate
        self.tokenizer = tokenizer
        self.calls = 0
        model.generate = self

    def __call__(self, input_ids=None, attention_mask=None, **kwargs):
        self.calls += 1
        tok = self.tokenizer
        rows, seen = [], {}
        for ids, mask in zip(input_ids, attention_mask):
            prompt = ids[mask.bool()].tolist()
            text = tok.decode(prompt, skip_special_tokens=False)
            task_id = next(t for t in TASKS if title(t) in text)
            turn = text.count("<|im_start|>assistant") - 1
            if turn == 0:
                nth = seen.setdefault(text, 0)
                seen[text] = nth + 1
                good = nth % 2 == 0
            else:
                good = WRONG_FILE not in text
            steps = plan(task_id, good)
            reply = steps[min(turn, len(steps) - 1)]
            rows.append(tok.encode(reply, add_special_tokens=False) + [tok.eos_token_id])
        width = max(len(r) for r in rows)
        completions = torch.tensor([r + [tok.pad_token_id] * (width - len(r)) for r in rows])
        return torch.cat([input_ids, completions.to(input_ids.device)], dim=1)


def title(task_id):
    """The task's title, which its first user message shows (its id does not appear)."""
    with open(os.path.join(ROOT, "tasks", task_id, "task.json"), encoding="utf-8") as f:
        return json.load(f)["title"]


def capture(trainer):
    """Record each batch TRL scores: its output (masks, advantages) and each reward source."""
    seen = {"batches": [], "rewards": []}
    score = trainer._generate_and_score_completions
    rewards = trainer._calculate_rewards

    def scored(inputs):
        output = score(inputs)
        seen["batches"].append({"inputs": [dict(i) for i in inputs], "output": output})
        return output

    def calculated(inputs, prompts, completions, completion_ids):
        result = rewards(inputs, prompts, completions, completion_ids)
        seen["rewards"].append(result.detach().clone())
        return result

    trainer._generate_and_score_completions = scored
    trainer._calculate_rewards = calculated
    return seen


def tree(path):
    found = []
    for parent, dirs, files in os.walk(path):
        found += [os.path.relpath(os.path.join(parent, name), path) for name in dirs + files]
    return sorted(found)


@pytest.fixture
def work_dir():
    # Under /tmp/patchgym, root's default workspace root, passed with --work-dir (granted with it).
    path = f"/tmp/patchgym/test-trl-{uuid.uuid4().hex[:8]}"
    os.makedirs(path)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.parametrize("mode", ["environment_factory", "rollout_func"])
def test_two_grpo_steps(mode, work_dir, tmp_path):
    example = load_example()
    argv = ["--model", "tiny", "--tokenizer", TOKENIZER, "--tasks", *TASKS, "--max-steps", "2"]
    argv += ["--learning-rate", "1e-3", "--max-completion-length", "1024", "--run-dir", str(tmp_path)]
    argv += ["--serve", shlex.join(serve_argv() + ["--stdio", "--work-dir", work_dir])]
    if mode == "rollout_func":
        argv.append("--rollout-func")
    args = example.parse_args(argv)
    tokenizer = example.load_tokenizer(args)
    model = example.load_model(args, tokenizer)
    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    forced = ForcedGenerate(model, tokenizer)

    with example.connect(args) as gym:
        trainer = example.build_trainer(args, gym, model, tokenizer)
        seen = capture(trainer)
        if mode == "environment_factory":
            # The tools TRL sees are patchgym's, as its chat template renders them.
            # (TRL lists an environment's methods by name, so they come in alphabetical order.)
            theirs = [get_json_schema(tool)["function"] for tool in trainer.tools]
            ours = sorted((schema["function"] for schema in gym.tools), key=lambda f: f["name"])
            assert [t["name"] for t in theirs] == [t["name"] for t in ours]
            for t, o in zip(theirs, ours):
                assert t["description"] == o["description"]
                props = o["parameters"].get("properties", {})
                assert set(t["parameters"]["properties"]) == set(props)
                assert set(t["parameters"].get("required", [])) == set(o["parameters"].get("required", []))
                for name, prop in props.items():
                    mine = t["parameters"]["properties"][name]
                    assert mine["description"] == prop["description"]
                    assert mine["type"] == prop["type"]
                    assert mine.get("enum") == prop.get("enum")
                    assert mine.get("items") == prop.get("items")
        trainer.train()

        # Every episode was closed when graded: only the servers' own marks are left.
        left = [p for p in tree(work_dir) if not re.fullmatch(r"proc-[^/]+(/\.owner)?", p)]
        assert left == [], left
        records = gym.records()
    assert tree(work_dir) == [], "the server removes its folder when it exits"

    assert forced.calls > 0
    assert len(seen["batches"]) == 2, "two GRPO steps, one generation each"
    assert len(records) == 4, "a trajectory record per episode"
    assert len({r["episode_id"] for r in records}) == 4
    assert sorted(r["task_id"] for r in records) == sorted(TASKS * 2)
    for record in records:
        good = WRONG_FILE not in (record["final_diff"] or "")
        assert record["stop_reason"] == "submitted"
        assert [t["tool"]["name"] for t in record["turns"] if t["tool"]] == ["apply_patch", "run_tests", "submit"]
        assert record["reward"]["total"] == (1.0 if good else 0.0), record["reward"]

    for batch, rewards in zip(seen["batches"], seen["rewards"]):
        output = batch["output"]
        # Rewards TRL computed are patchgym's grades: 1 for the solution, 0 for the wrong patch.
        assert sorted(rewards.sum(dim=1).tolist()) == [0.0, 1.0]
        assert torch.all(output["advantages"] != 0)
        mask = output["tool_mask"] * output["completion_mask"]
        for row, row_mask in zip(output["completion_ids"], mask):
            model_text = tokenizer.decode(row[row_mask.bool()], skip_special_tokens=False)
            env_text = tokenizer.decode(row[(1 - row_mask).bool() & (row != tokenizer.pad_token_id)])
            # Tool results are out of the loss; the model's tool calls are in it.
            assert "<tool_response>" in env_text and "<tool_response>" not in model_text
            assert '"name": "apply_patch"' in model_text and '"name": "submit"' in model_text

    changed = [name for name, p in model.named_parameters() if not torch.equal(p.detach(), before[name])]
    assert changed, "the weights changed"
