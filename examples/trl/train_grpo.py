#!/usr/bin/env python3
"""Train a coding agent with TRL's GRPOTrainer on patchgym tasks.

Two ways to connect TRL to patchgym (see the README, "Training with TRL"):

- default, `environment_factory`: TRL runs the multi-turn loop; patchgym's tools are the
  environment's methods, each call runs in patchgym's workspace and jail, and the reward is
  patchgym's grade (hidden tests).
- `--rollout-func`: patchgym runs the loop (its limits, nudges and grading) with the trainer's model,
  token in and token out, and TRL trains on the episode's token-faithful record.

    # a real model on a GPU machine (vLLM for generation):
    python examples/trl/train_grpo.py --model Qwen/Qwen3-0.6B --use-vllm --max-steps 100
    # on CPU, a tiny random 2-layer Qwen3 with a local Qwen3 tokenizer (checks the wiring only):
    python examples/trl/train_grpo.py --model tiny --tokenizer PATH/TO/QWEN3_TOKENIZER --max-steps 2

The patchgym server is `dist/patchgym serve --stdio` when the binary was built, else
`deno task -q patchgym serve --stdio`, both from the repository root (or `--serve-url` for a
running `serve --http`). Trajectory records go to `runs/trl-.../trajectories.jsonl`.
"""
import argparse
import os
import shlex
import shutil
import sys
from collections import defaultdict

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

try:
    import patchgym  # noqa: F401  (installed with `pip install ./clients/python`)
except ImportError:
    sys.path.insert(0, os.path.join(ROOT, "clients", "python"))

from patchgym.trl import PatchgymTRL  # noqa: E402


def parse_args(argv=None):
    """The command line; every default suits a small CPU run except `--model`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="tiny", help='a hub name or folder, or "tiny" (random 2-layer Qwen3)')
    parser.add_argument("--tokenizer", help="tokenizer folder (default: the model's; required for tiny)")
    parser.add_argument("--tasks", nargs="*", help="task ids (default: every task)")
    parser.add_argument("--languages", nargs="*", help="python, typescript")
    parser.add_argument("--samples-per-task", type=int, default=1, help="dataset rows per task")
    parser.add_argument("--num-generations", type=int, default=2, help="GRPO group size")
    parser.add_argument("--batch-size", type=int, default=2, help="per-device train batch size")
    parser.add_argument("--max-steps", type=int, default=2)
    parser.add_argument("--learning-rate", type=float, default=1e-5)
    parser.add_argument("--max-completion-length", type=int, default=2048, help="tokens of a whole episode")
    parser.add_argument("--max-turns", type=int, help="patchgym's turn limit (default: the task's)")
    parser.add_argument("--rollout-func", action="store_true", help="patchgym runs the loop")
    parser.add_argument("--use-vllm", action="store_true", help="generate with vLLM (GPU)")
    parser.add_argument("--vllm-mode", default="colocate", choices=["colocate", "server"])
    parser.add_argument("--serve", help='command of `patchgym serve --stdio`, e.g. "dist/patchgym serve --stdio"')
    parser.add_argument(
        "--serve-url",
        help="a running `patchgym serve --http` instead (its token: in the URL as http://patchgym:TOKEN@HOST:PORT,"
        " or PATCHGYM_TOKEN, PATCHGYM_TOKEN_FILE, ~/.patchgym/token)",
    )
    parser.add_argument("--run-dir", help="where records and checkpoints go (default runs/trl-...)")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


def serve_command():
    """`patchgym serve --stdio` from this checkout: the compiled binary if built, else deno."""
    binary = os.path.join(ROOT, "dist", "patchgym")
    if os.access(binary, os.X_OK):
        return [binary, "serve", "--stdio"]
    deno = shutil.which("deno") or "deno"
    return [deno, "task", "-q", "--cwd", ROOT, "patchgym", "serve", "--stdio"]


def load_tokenizer(args):
    """The tokenizer, with TRL's Qwen3 chat template for the tiny model (tool calling)."""
    from transformers import AutoTokenizer
    from trl.chat_template_utils import qwen3_chat_template

    if args.model == "tiny" and not args.tokenizer:
        sys.exit("--model tiny needs --tokenizer: a Qwen3 tokenizer folder (tokenizer.json, tokenizer_config.json)")
    tokenizer = AutoTokenizer.from_pretrained(args.tokenizer or args.model)
    if args.model == "tiny":
        tokenizer.chat_template = qwen3_chat_template
    tokenizer.padding_side = "left"
    return tokenizer


def tiny_qwen3(tokenizer, seed=0):
    """A 2-layer Qwen3-architecture model with random weights (no download), for CPU runs."""
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    torch.manual_seed(seed)
    config = Qwen3Config(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        head_dim=16,
        max_position_embeddings=8192,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    model = Qwen3ForCausalLM(config)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    return model


def load_model(args, tokenizer):
    """The policy: the tiny random model, or a pretrained one by name or folder."""
    if args.model == "tiny":
        return tiny_qwen3(tokenizer, args.seed)
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(args.model, dtype="auto")


def connect(args):
    """The patchgym connection: records go to the run folder."""
    limits = {"max_turns": args.max_turns} if args.max_turns else None
    if args.serve_url:
        return PatchgymTRL(url=args.serve_url, run_dir=args.run_dir, limits=limits)
    command = shlex.split(args.serve) if args.serve else serve_command()
    return PatchgymTRL(command=command, run_dir=args.run_dir, limits=limits)


def reward_log(gym):
    """A callback printing, after each step, the mean reward per task of the episodes graded so far."""
    from transformers import TrainerCallback

    class RewardPerTask(TrainerCallback):
        def on_step_end(self, _args, state, _control, **_kwargs):
            rewards = defaultdict(list)
            for record in gym.records():
                rewards[record["task_id"]].append((record.get("reward") or {}).get("total", 0.0))
            line = ", ".join(f"{task} {sum(r) / len(r):.2f} ({len(r)})" for task, r in sorted(rewards.items()))
            print(f"step {state.global_step}: mean reward per task: {line}", flush=True)

    return RewardPerTask()


def build_trainer(args, gym, model, tokenizer):
    """The GRPOTrainer, in `environment_factory` mode or (`--rollout-func`) `rollout_func` mode."""
    from trl import GRPOConfig, GRPOTrainer

    config = GRPOConfig(
        output_dir=os.path.join(gym.run_dir, "checkpoints"),
        per_device_train_batch_size=args.batch_size,
        num_generations=args.num_generations,
        max_completion_length=args.max_completion_length,
        max_steps=args.max_steps,
        learning_rate=args.learning_rate,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        seed=args.seed,
        use_vllm=args.use_vllm,
        vllm_mode=args.vllm_mode,
        use_cpu=not _has_gpu(),
        bf16=_has_gpu(),
        log_completions=False,
    )
    dataset = gym.dataset(
        tasks=args.tasks,
        languages=args.languages,
        samples_per_task=args.samples_per_task,
        seed=args.seed,
        statement_in_prompt=args.rollout_func,
    )
    common = dict(args=config, train_dataset=dataset, processing_class=tokenizer, callbacks=[reward_log(gym)])
    if args.rollout_func:
        return GRPOTrainer(model, reward_funcs=gym.reward, rollout_func=gym.rollout_func, **common)
    return GRPOTrainer(model, environment_factory=gym.environment, **common)


def _has_gpu():
    import torch

    return torch.cuda.is_available()


def main(argv=None):
    args = parse_args(argv)
    tokenizer = load_tokenizer(args)
    model = load_model(args, tokenizer)
    with connect(args) as gym:
        trainer = build_trainer(args, gym, model, tokenizer)
        trainer.train()
        print(f"trajectory records: {gym.records_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
