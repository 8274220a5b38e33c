"""TRL adapter: train with `trl.GRPOTrainer` on patchgym tasks, through the serve protocol.

Written against TRL 1.13 (`trl/trainer/grpo_trainer.py`). One `PatchgymTRL` owns a connection
to `patchgym serve` (a `--stdio` subprocess it starts, or the WebSocket of `serve --http`), the
run folder where every finished episode's trajectory record is appended, and patchgym's tool
schemas. It gives TRL what each of its two entry points takes:

- `environment`: a class for `GRPOTrainer(environment_factory=...)`. `reset(**row)` opens an
  episode on the row's `task_id` and returns the task statement; one public method per patchgym
  tool, its type hints and docstring generated from patchgym's own schema, runs the call in the
  episode's workspace and jail and returns the observation; `get_reward()` grades the episode with
  patchgym's grader and returns the total. TRL runs the loop and masks tool results out of the loss.
- `rollout_func`: for `GRPOTrainer(rollout_func=..., reward_funcs=gym.reward)`. patchgym runs the
  loop (its limits, its nudge after a reply without a tool call, its grading) with the trainer's
  own model, and the returned `prompt_ids`, `completion_ids`, `env_mask` and `logprobs` come from
  the episode's token-faithful record (`training.segments`).
- `dataset(...)`: tasks as a `datasets.Dataset` with `prompt` and `task_id` columns.

    from patchgym.trl import PatchgymTRL
    with PatchgymTRL(command=["patchgym", "serve", "--stdio"]) as gym:
        trainer = GRPOTrainer(model, args=config, train_dataset=gym.dataset(samples_per_task=1),
                              environment_factory=gym.environment)
        trainer.train()

TRL, datasets and torch are imported only by the methods that need them; the rest of the client
stays standard-library only.
"""
import atexit
import inspect
import json
import os
import random
import threading
import time
import uuid
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Literal, Optional

from .client import Client, tool_call_message
from .errors import PatchgymError

_SCALARS = {"string": str, "integer": int, "number": float, "boolean": bool, "object": dict}


class _Unset:
    """The default of an optional tool argument the model left out: patchgym applies its own."""

    def __repr__(self):
        return "<patchgym default>"


_UNSET = _Unset()


def python_type(schema):
    """The Python type hint for a JSON schema property, as transformers' `get_json_schema` reads
    type hints back: `str`, `int`, `float`, `bool`, `dict`, `list[...]`, `Literal[...]`."""
    if "enum" in schema:
        return Literal[tuple(schema["enum"])]
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items")
        return List[python_type(items)] if items else list
    return _SCALARS.get(kind, Any)


def tool_docstring(function):
    """A Google-style docstring for one tool: its description and an `Args:` entry per argument."""
    properties = function["parameters"].get("properties", {})
    lines = [_one_line(function["description"])]
    if properties:
        lines += ["", "Args:"]
        for name, schema in properties.items():
            lines.append(f"    {name}: {_one_line(schema.get('description') or name)}")
    lines += ["", "Returns:", "    The tool's output, or an error the model can act on."]
    return "\n".join(lines)


def _one_line(text):
    # One line each, spacing kept: the docstring parser reads an entry up to the next line.
    return " ".join(str(text).strip().splitlines())


def make_tool_method(schema):
    """A method running patchgym tool `schema` (an OpenAI tool definition from a reset answer).
    Required arguments have no default; optional ones default to a marker that is left out of
    the call, so patchgym applies its own defaults and bounds."""
    function = schema["function"]
    name = function["name"]
    properties = function["parameters"].get("properties", {})
    required = set(function["parameters"].get("required", []))

    def tool(self, **arguments):
        return self._call(name, {k: v for k, v in arguments.items() if v is not _UNSET})

    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations = {}
    for arg, prop in properties.items():
        annotations[arg] = python_type(prop)
        parameters.append(
            inspect.Parameter(
                arg,
                inspect.Parameter.KEYWORD_ONLY,
                default=inspect.Parameter.empty if arg in required else _UNSET,
                annotation=annotations[arg],
            )
        )
    annotations["return"] = str
    tool.__name__ = tool.__qualname__ = name
    tool.__doc__ = tool_docstring(function)
    tool.__annotations__ = annotations
    tool.__signature__ = inspect.Signature(parameters, return_annotation=str)
    return tool


class _Episode:
    """One open episode of an environment instance."""

    def __init__(self, reset):
        self.id = reset.episode_id
        self.task_id = reset.task["id"]
        self.final = None
        self.calls = 0


class PatchgymEnvironment:
    """Base of the class `PatchgymTRL.environment` builds (with one method per patchgym tool).

    TRL creates instances with no arguments, keeps them in a pool and calls `reset(**row)` for
    every rollout; an episode left open is closed (workspace removed, no record) by the next
    `reset`, when the instance is dropped, and when the `PatchgymTRL` closes."""

    _gym = None  # set on the subclass

    def __init__(self):
        self._episode = None
        gym = type(self)._gym
        self._slot = [None]  # the open episode's id, also seen by the finalizer
        self._finalizer = weakref.finalize(self, _close_quietly, gym, self._slot)
        gym._instances.add(self)

    def reset(self, task_id: str = None, seed: int = None, **row) -> str:
        """Open an episode on the row's task (or the task `seed` picks) and return its statement."""
        self._close()
        gym = type(self)._gym
        answer = gym.client.reset(task_id=task_id, seed=seed, tool_calls="native", **gym.reset_options)
        self._episode = _Episode(answer)
        self._slot[0] = answer.episode_id
        return _user_text(answer.messages)

    def get_reward(self) -> float:
        """Grade the episode with patchgym's grader (hidden tests), keep its record, close it."""
        episode = self._episode
        if episode is None:
            return 0.0
        gym = type(self)._gym
        try:
            result = episode.final or gym.client.finish(episode.id)
            gym.keep(result.record)
            return float(result.reward)
        finally:
            self._close()

    def _call(self, name, arguments):
        episode = self._episode
        if episode is None:
            return f'Cannot run "{name}": no episode is open; the environment was not reset'
        if episode.final is not None:
            return (
                f'Cannot run "{name}": the episode has ended ({episode.final.stop_reason}); '
                "reply without a tool call"
            )
        episode.calls += 1
        message = tool_call_message(name, arguments, call_id=f"call_{episode.calls}")
        try:
            result = type(self)._gym.client.step(episode.id, message)
        except PatchgymError as error:
            return f'Cannot run "{name}": {error.message}'
        if result.done:
            episode.final = result
        text = "\n".join(_text(m.get("content")) for m in result.observation if m.get("role") == "tool")
        if result.done and result.stop_reason != "submitted":
            text += f"\n[The episode has ended: {result.stop_reason}]"
        return text

    def _close(self):
        episode, self._episode = self._episode, None
        self._slot[0] = None
        if episode is not None:
            _close_quietly(type(self)._gym, [episode.id])


def _close_quietly(gym, slot):
    episode_id = slot[0]
    if episode_id is None or gym.client is None:
        return
    try:
        gym.client.close_episode(episode_id)
    except Exception:  # the server is gone: it removed its workspaces when it exited
        pass


def _text(content):
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if isinstance(part, dict))


def _user_text(messages):
    for message in reversed(messages):
        if message.get("role") == "user":
            return _text(message.get("content"))
    raise PatchgymError("The reset answer has no user message", "internal")


class PatchgymTRL:
    """A connection to patchgym for TRL: environment class, dataset, rollout function, reward.

    Give `command` (the argv of `patchgym serve --stdio`, started and stopped here), `url` (a
    running `serve --http`; its token is `token`, else found as `Client.connect` finds it) or a
    `client`. Finished episodes' trajectory records are appended to
    `run_dir/trajectories.jsonl` (default `runs/trl-<time>-<id>`), so `patchgym export` reads
    them like any run. `limits` and `reset_options` go into every reset."""

    def __init__(
        self,
        command=None,
        url=None,
        client=None,
        run_dir=None,
        limits=None,
        reset_options=None,
        token=None,
    ):
        if client is not None:
            self.client, self._owns_client = client, False
        elif url is not None:
            self.client, self._owns_client = Client.connect(url, token=token), True
        else:
            self.client = Client.stdio(command or ["patchgym", "serve", "--stdio"])
            self._owns_client = True
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        self.run_dir = os.path.abspath(run_dir or os.path.join("runs", f"trl-{stamp}-{uuid.uuid4().hex[:6]}"))
        os.makedirs(self.run_dir, exist_ok=True)
        self.records_path = os.path.join(self.run_dir, "trajectories.jsonl")
        self.reset_options = dict(reset_options or {})
        if limits:
            self.reset_options["limits"] = dict(limits)
        self._lock = threading.Lock()
        self._instances = weakref.WeakSet()
        self._tools = None
        self._system = None
        self._environment = None
        self._prompt_tasks = {}
        self._closed = False
        atexit.register(self.close)

    # --- what patchgym offers ------------------------------------------------------------------

    def tasks(self):
        """Every task with its metadata (`id`, `title`, `language`, `difficulty`, `kind`, ...)."""
        return self.client.tasks()

    def _first_messages(self, task_id):
        answer = self.client.reset(task_id=task_id, tool_calls="native", **self.reset_options)
        try:
            return answer.messages, answer.tools
        finally:
            self.client.close_episode(answer.episode_id)

    def _learn(self):
        if self._tools is None:
            tasks = self.tasks()
            if not tasks:
                raise PatchgymError("The server has no tasks; check its task folder", "unknown_task")
            messages, self._tools = self._first_messages(tasks[0]["id"])
            self._system = [m for m in messages if m.get("role") == "system"]

    @property
    def tools(self):
        """patchgym's tool schemas (OpenAI tool definitions), as a reset answers them."""
        self._learn()
        return self._tools

    @property
    def environment(self):
        """The class for `GRPOTrainer(environment_factory=...)`: `reset`, `get_reward` and one
        method per patchgym tool. Named `PatchgymEnv`, which is how TRL logs its reward."""
        if self._environment is None:
            members = {"_gym": self, "__doc__": PatchgymEnvironment.__doc__}
            for schema in self.tools:
                members[schema["function"]["name"]] = make_tool_method(schema)
            self._environment = type("PatchgymEnv", (PatchgymEnvironment,), members)
        return self._environment

    # --- data ----------------------------------------------------------------------------------

    def task_ids(self, tasks=None, languages=None, difficulties=None, kinds=None):
        """Task ids, sorted, filtered by id, language, difficulty and kind (each a list or None)."""
        chosen = []
        for task in self.tasks():
            if tasks is not None and task["id"] not in tasks:
                continue
            if languages is not None and task["language"] not in languages:
                continue
            if difficulties is not None and task["difficulty"] not in difficulties:
                continue
            if kinds is not None and task["kind"] not in kinds:
                continue
            chosen.append(task["id"])
        if tasks is not None:
            missing = sorted(set(tasks) - {t["id"] for t in self.tasks()})
            if missing:
                raise PatchgymError(f"Unknown task(s) {', '.join(missing)}; list them with tasks()", "unknown_task")
        return sorted(chosen)

    def dataset(
        self,
        tasks=None,
        languages=None,
        difficulties=None,
        kinds=None,
        samples_per_task=1,
        seed=None,
        statement_in_prompt=False,
    ):
        """Tasks as a `datasets.Dataset` with columns `prompt` (conversational) and `task_id`.

        Each task appears `samples_per_task` times (GRPO's `num_generations` samples each row
        again); `seed` shuffles the rows. For `environment_factory` the prompt is patchgym's
        system prompt and an empty user message that `reset` fills with the task statement. For
        `rollout_func` (`statement_in_prompt=True`) it is the episode's whole first conversation,
        which is how the rollout function tells the task of a prompt."""
        from datasets import Dataset  # imported only when used

        ids = self.task_ids(tasks, languages, difficulties, kinds)
        rows = []
        for task_id in ids:
            if statement_in_prompt:
                messages, _ = self._first_messages(task_id)
                prompt = [{"role": m["role"], "content": _text(m.get("content"))} for m in messages]
                self._prompt_tasks[_prompt_key(prompt)] = task_id
            else:
                self._learn()
                prompt = [{"role": "system", "content": _text(m["content"])} for m in self._system]
                prompt.append({"role": "user", "content": ""})
            rows += [{"prompt": prompt, "task_id": task_id} for _ in range(samples_per_task)]
        if seed is not None:
            random.Random(seed).shuffle(rows)
        return Dataset.from_list(rows)

    # --- records -------------------------------------------------------------------------------

    def keep(self, record):
        """Append a finished episode's trajectory record to the run folder."""
        if record is None:
            return
        with self._lock, open(self.records_path, "a", encoding="utf-8") as out:
            out.write(json.dumps(record, separators=(",", ":")) + "\n")

    def records(self):
        """The records kept so far, parsed."""
        if not os.path.exists(self.records_path):
            return []
        with open(self.records_path, encoding="utf-8") as lines:
            return [json.loads(line) for line in lines if line.strip()]

    # --- rollout_func mode ---------------------------------------------------------------------

    def rollout_func(self, prompts, trainer):
        """TRL's `rollout_func(prompts, trainer)`: one patchgym episode per prompt, run by
        patchgym with the trainer's model (token in, token out), graded, its record kept.

        Returns `prompt_ids`, `completion_ids`, `env_mask` (1 on model tokens, 0 on tool results
        and nudges) and `logprobs` (None unless the generation backend gives them) from the
        record's training view, plus `patchgym_reward` and `patchgym_stop_reason` for the
        reward function `gym.reward`. Prompts must come from `dataset(statement_in_prompt=True)`."""
        return _Rollout(self, trainer).run(prompts)

    @property
    def reward(self):
        """The reward function for `rollout_func` mode (logged by TRL as `patchgym_reward`)."""
        return patchgym_reward

    # --- lifetime ------------------------------------------------------------------------------

    def close(self):
        """Close every open episode (their workspaces are removed) and, if started here, the server."""
        if self._closed:
            return
        self._closed = True
        for instance in list(self._instances):
            instance._close()
        if self._owns_client:
            try:
                self.client.close()
            except Exception:
                pass
        atexit.unregister(self.close)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def patchgym_reward(patchgym_reward=None, **kwargs):
    """Reward function for `rollout_func` mode: each episode's graded total, which the rollout
    function passes on in the `patchgym_reward` column."""
    if patchgym_reward is None:
        raise PatchgymError(
            "No patchgym_reward column: use PatchgymTRL.reward together with PatchgymTRL.rollout_func",
            "bad_request",
        )
    return [float(r) for r in patchgym_reward]


def _prompt_key(messages):
    return json.dumps([[m.get("role"), _text(m.get("content"))] for m in messages])


class _Rollout:
    """One call of the rollout function: every prompt's episode, advanced one turn at a time."""

    def __init__(self, gym, trainer):
        from trl.chat_template_utils import get_training_chat_template, is_chat_template_prefix_preserving

        self.gym = gym
        self.trainer = trainer
        self.tokenizer = getattr(trainer, "_tokenizer", None) or trainer.processing_class
        self.template = getattr(trainer, "chat_template", None)
        if self.template is None and not is_chat_template_prefix_preserving(trainer.processing_class):
            # Tool results are tokenized on their own and appended; the template must render the
            # conversation so far the same way whatever follows (TRL does the same for its loop).
            self.template = get_training_chat_template(trainer.processing_class)
        self.template_kwargs = dict(getattr(trainer, "chat_template_kwargs", None) or {})
        self.budget = trainer.max_completion_length

    def _render(self, messages, tools=None, generation=True):
        ids = self.tokenizer.apply_chat_template(
            messages,
            tools=tools,
            add_generation_prompt=generation,
            tokenize=True,
            chat_template=self.template,
            return_dict=False,
            **self.template_kwargs,
        )
        return list(ids)

    def _suffix(self, messages):
        """Token ids of new messages (tool results, a nudge) plus the next generation prompt."""
        dummy = [
            {"role": "user", "content": "dummy"},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [{"type": "function", "function": {"name": "dummy", "arguments": {}}}],
            },
        ]
        prefix = self._render(dummy, generation=False)
        eos = self.tokenizer.eos_token_id
        ends = [i for i, t in enumerate(prefix) if t == eos]
        if ends:
            prefix = prefix[: ends[-1] + 1]
        full = self._render(dummy + [_plain(m) for m in messages])
        if full[: len(prefix)] != prefix:
            raise PatchgymError("The chat template does not render a conversation prefix-stably", "internal")
        return full[len(prefix) :]

    def _generate(self, batch):
        trainer = self.trainer
        if getattr(trainer, "use_vllm", False) and getattr(trainer, "vllm_mode", None) == "server":
            # TRL's server path takes one prompt per GRPO group; every episode here is its own.
            output = trainer.vllm_generation.vllm_client.generate(
                prompts=batch,
                n=1,
                temperature=trainer.temperature,
                top_p=trainer.top_p,
                top_k=trainer.top_k or 0,
                min_p=trainer.min_p or 0.0,
                repetition_penalty=trainer.repetition_penalty,
                max_tokens=self.budget,
                logprobs=0,
            )
            logprobs = output.get("logprobs")
            return output["completion_ids"], [[lp[0] for lp in seq] for seq in logprobs] if logprobs else None
        return trainer._generate_single_turn(batch, None, {})

    def run(self, prompts):
        gym = self.gym
        episodes = []
        try:
            for prompt in prompts:
                task_id = gym._prompt_tasks.get(_prompt_key(prompt))
                if task_id is None:
                    raise PatchgymError(
                        "Cannot tell the task of a prompt; build the dataset with "
                        "PatchgymTRL.dataset(statement_in_prompt=True)",
                        "bad_request",
                    )
                options = dict(gym.reset_options)
                # A GRPO group is the samples of one prompt in one generation batch.
                step = getattr(getattr(self.trainer, "state", None), "global_step", 0)
                options.setdefault("group_id", f"{os.path.basename(gym.run_dir)}/step-{step}/{task_id}")
                answer = gym.client.reset(task_id=task_id, tool_calls="native", **options)
                ids = self._render(answer.messages, tools=answer.tools)
                episodes.append({"id": answer.episode_id, "ids": ids, "start": len(ids), "result": None})
            active = list(episodes)
            with ThreadPoolExecutor(max_workers=min(16, max(1, len(active)))) as pool:
                while active:
                    completions, logprobs = self._generate([e["ids"] for e in active])
                    steps = pool.map(
                        lambda i: self._step(active[i], completions[i], logprobs[i] if logprobs else None),
                        range(len(active)),
                    )
                    list(steps)
                    active = [e for e in active if e["result"] is None]
            return self._output(episodes)
        finally:
            for episode in episodes:
                _close_quietly(gym, [episode["id"]])

    def _step(self, episode, completion, logprobs):
        gym = self.gym
        completion = list(completion)
        text = self.tokenizer.decode(completion, skip_special_tokens=True)
        tokens = {"prompt_ids": episode["ids"], "completion_ids": completion}
        if logprobs is not None:
            tokens["logprobs"] = [float(x) for x in logprobs]
        finish = None if completion and completion[-1] == self.tokenizer.eos_token_id else "length"
        result = gym.client.step(
            episode["id"], {"role": "assistant", "content": text}, tokens=tokens, finish_reason=finish
        )
        episode["ids"] = episode["ids"] + completion
        if not result.done and len(episode["ids"]) - episode["start"] >= self.budget:
            result = gym.client.finish(episode["id"])  # the completion budget of TRL is spent
        if result.done:
            gym.keep(result.record)
            episode["result"] = result
            return
        episode["ids"] = episode["ids"] + self._suffix(result.observation)

    def _output(self, episodes):
        out = {
            "prompt_ids": [],
            "completion_ids": [],
            "env_mask": [],
            "logprobs": [],
            "patchgym_reward": [],
            "patchgym_stop_reason": [],
        }
        with_logprobs = True
        for episode in episodes:
            result = episode["result"]
            segment = _training_segment(result.record)
            out["prompt_ids"].append(segment["prompt_ids"])
            out["completion_ids"].append(segment["response_ids"])
            out["env_mask"].append(segment["loss_mask"])
            out["logprobs"].append(segment["rollout_logprobs"])
            with_logprobs = with_logprobs and segment["rollout_logprobs"] is not None
            out["patchgym_reward"].append(float(result.reward))
            out["patchgym_stop_reason"].append(result.stop_reason)
        if not with_logprobs:
            out["logprobs"] = None
        return out


def _plain(message):
    """A message as a chat template reads it: role, text content, name of a tool."""
    plain = {"role": message["role"], "content": _text(message.get("content"))}
    if message.get("name"):
        plain["name"] = message["name"]
    return plain


def _training_segment(record):
    """The record's last training segment with a loss token (as `patchgym export` picks)."""
    training = (record or {}).get("training") or {}
    segments = [s for s in training.get("segments") or [] if any(s["loss_mask"])]
    if not training.get("available") or not segments:
        reason = training.get("reason") or "no segment has a token with loss"
        raise PatchgymError(f"Episode {record and record.get('episode_id')} has no token view: {reason}", "internal")
    return segments[-1]


__all__ = [
    "PatchgymEnvironment",
    "PatchgymTRL",
    "make_tool_method",
    "patchgym_reward",
    "python_type",
    "tool_docstring",
]
