"""The adapters against stand-ins that mirror their libraries' interfaces (the libraries cannot be
installed here): SkyRL-Gym 0.4.0 `BaseTextEnv`, verifiers 0.3.0 classic `MultiTurnEnv`, and
openenv-core 0.2.3 `EnvClient` (its WebSocket framing, spoken to the real server)."""
import asyncio
import base64
import json
import os
import re
import types
from dataclasses import dataclass
from typing import Any, Optional
from urllib.parse import urlsplit

from patchgym import AsyncClient, Client, tool_call_message
from patchgym import openenv as pg_openenv
from patchgym import skyrl as pg_skyrl
from patchgym import verifiers as pg_verifiers
from patchgym._websocket import WebSocket

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def text_call(name, arguments):
    return f'<tool_call>{json.dumps({"name": name, "arguments": arguments})}</tool_call>'


# --- SkyRL-Gym ---------------------------------------------------------------------------------


class BaseTextEnv:
    """Mirrors skyrl_gym.envs.base_text_env.BaseTextEnv (0.4.0): init/step/close, turns."""

    def __init__(self):
        self.turns = 0
        self.max_turns = 1

    def init(self, prompt):
        return prompt, {}

    def step(self, action):
        raise NotImplementedError

    def close(self):
        pass


def test_skyrl_env_runs_a_text_episode_to_the_reward(stdio_command, solution):
    PatchgymEnv = pg_skyrl.make_env_class(BaseTextEnv)
    with Client.stdio(stdio_command, cwd=ROOT) as client:
        env = PatchgymEnv(env_config={"client": client}, extras={"task_id": "py-median-even"})
        conversation, metadata = env.init([{"role": "user", "content": "ignored"}])
        assert "<tool_call>" in conversation[0]["content"]
        assert metadata["task"]["id"] == "py-median-even"
        out = env.step(text_call("apply_patch", {"patch": solution}))
        assert out["done"] is False and out["reward"] == 0.0
        assert out["observations"][0]["role"] == "tool"
        out = env.step(text_call("submit", {"status": "solved", "summary": "fixed"}))
        assert out["done"] is True and out["reward"] == 1.0
        assert out["metadata"]["stop_reason"] == "submitted"
        assert env.record["reward"]["resolved"] is True
        env.close()


# --- verifiers ---------------------------------------------------------------------------------


def make_verifiers_standin():
    """Mirrors the parts of verifiers 0.3.0's classic API the adapter uses, with its rollout loop:
    setup_state, then model -> env_response until final_env_response or max_turns, then the
    @vf.cleanup handlers and the rubric's reward functions over the state."""
    vf = types.ModuleType("verifiers")

    def cleanup(func):
        func.cleanup = True
        return func

    class Rubric:
        def __init__(self, funcs=None, weights=None):
            self.funcs = funcs or []

    class MultiTurnEnv:
        def __init__(self, max_turns=-1, rubric=None, **kwargs):
            self.max_turns = max_turns
            self.rubric = rubric

        async def rollout(self, row, model):
            state = {"prompt": row["prompt"], "info": row["info"], "trajectory": []}
            state = await self.setup_state(state) or state
            messages = list(state["prompt"])
            try:
                while state.get("final_env_response") is None and (
                    self.max_turns <= 0 or len(state["trajectory"]) < self.max_turns
                ):
                    reply = {"role": "assistant", "content": model(messages)}
                    state["trajectory"].append(reply)
                    messages.append(reply)
                    messages += await self.env_response(messages, state)
            finally:
                for name in dir(self):
                    method = getattr(self, name)
                    if getattr(method, "cleanup", False):
                        await method(state)
            state["reward"] = sum([await f(state) for f in self.rubric.funcs])
            return state

    vf.cleanup, vf.Rubric, vf.MultiTurnEnv = cleanup, Rubric, MultiTurnEnv
    return vf


def test_verifiers_env_rolls_out_and_rewards_from_patchgym(stdio_command, solution):
    PatchgymEnv = pg_verifiers.make_env_class(make_verifiers_standin())
    plan = iter([text_call("apply_patch", {"patch": solution}), text_call("submit", {"status": "solved", "summary": "x"})])

    async def main():
        client = await AsyncClient.stdio(stdio_command, cwd=ROOT)
        try:
            env = PatchgymEnv(client=client, max_turns=10)
            row = pg_verifiers.task_rows(["py-median-even"])[0]
            return await env.rollout(row, lambda messages: next(plan))
        finally:
            await client.close()

    state = asyncio.run(main())
    assert state["reward"] == 1.0
    assert state["patchgym"]["stop_reason"] == "submitted"
    assert "<tool_call>" in state["prompt"][0]["content"]
    assert len(state["trajectory"]) == 2


# --- OpenEnv -----------------------------------------------------------------------------------


@dataclass
class StepResult:
    """Mirrors openenv.core.client_types.StepResult."""

    observation: Any
    reward: Optional[float] = None
    done: bool = False


class EnvClient:
    """Mirrors openenv.core.env_client.EnvClient's wire behaviour: `{base_url}/ws`, messages
    `{"type": "reset"|"step"|"state"|"close", "data"}`, answers' `data` parsed by the subclass,
    `{"type": "error"}` raised as RuntimeError."""

    def __init__(self, base_url):
        self._url = base_url.rstrip("/") + "/ws"
        self._ws = None

    async def connect(self):
        # As the `websockets` library OpenEnv uses: credentials written in the URL go as HTTP
        # Basic (websockets.headers.build_authorization_basic), and no other header is set.
        parts = urlsplit(self._url)
        basic = None
        if parts.username is not None:
            pair = f"{parts.username}:{parts.password}".encode()
            basic = "Basic " + base64.b64encode(pair).decode()
        self._ws = await WebSocket.connect(self._url, authorization=basic)
        return self

    async def _send_and_receive(self, message):
        await self._ws.send(json.dumps(message))
        response = json.loads(await self._ws.recv())
        if response.get("type") == "error":
            data = response.get("data", {})
            raise RuntimeError(f"Server error: {data.get('message')} (code: {data.get('code')})")
        return response

    async def reset(self, **kwargs):
        response = await self._send_and_receive({"type": "reset", "data": kwargs})
        return self._parse_result(response.get("data", {}))

    async def step(self, action, **kwargs):
        response = await self._send_and_receive({"type": "step", "data": self._step_payload(action)})
        return self._parse_result(response.get("data", {}))

    async def state(self):
        response = await self._send_and_receive({"type": "state"})
        return self._parse_state(response.get("data", {}))

    async def close(self):
        await self._ws.send(json.dumps({"type": "close"}))
        await self._ws.close()

    async def __aenter__(self):
        return await self.connect()

    async def __aexit__(self, *exc):
        await self.close()


def plan_for(solution):
    return [
        ("inspect_tree", {}),
        ("apply_patch", {"patch": solution}),
        ("run_tests", {}),
        ("submit", {"status": "solved", "summary": "fixed the even case"}),
    ]


def graded(record):
    """What must match across transports: the grade and what every tool did."""
    return {
        "stop_reason": record["stop_reason"],
        "reward": record["reward"]["total"],
        "components": {k: v for k, v in record["reward"]["components"].items()},
        "tests": record["reward"]["tests"],
        "final_diff": record["final_diff"],
        # Test runners print their duration; nothing else may differ.
        "tools": [
            (t["tool"]["name"], t["tool"]["ok"], re.sub(r"in \d+\.\d+s", "in Ns", t["tool"]["output"]))
            for t in record["turns"]
        ],
        "messages": len(record["messages"]),
    }


def test_openenv_session_runs_the_same_episode_as_the_python_client_and_stdio(
    stdio_command, http_url, http_token, solution
):
    plan = plan_for(solution)
    PatchgymEnv = pg_openenv.make_env_class(EnvClient, StepResult)

    async def openenv_episode():
        # OpenEnv's client takes only a base URL: the token rides in it, as its user's password.
        base_url = http_url.replace("http://", f"http://patchgym:{http_token}@")
        async with PatchgymEnv(base_url=base_url) as env:
            first = await env.reset(task_id="py-median-even")
            assert first.done is False and first.reward is None
            assert first.observation["task"]["id"] == "py-median-even"
            result = None
            for name, arguments in plan:
                result = await env.step(pg_openenv.message_action(tool_call_message(name, arguments)))
            state = await env.state()
            assert state["step_count"] == len(plan) and state["done"] is True
            assert result.done is True and result.reward == 1.0
            try:
                await env.step(pg_openenv.message_action(tool_call_message("inspect_tree", {})))
                raise AssertionError("a step after the end must fail")
            except RuntimeError as error:
                assert "already ended" in str(error) and "EXECUTION_ERROR" in str(error)
            return result.observation["record"]

    def client_episode(client):
        episode = client.reset(task_id="py-median-even")
        result = None
        for name, arguments in plan:
            result = client.step(episode.episode_id, tool_call_message(name, arguments))
        return result.record

    token_file = os.environ.pop("PATCHGYM_TOKEN_FILE")
    try:
        openenv_record = asyncio.run(openenv_episode())
    finally:
        os.environ["PATCHGYM_TOKEN_FILE"] = token_file
    with Client.connect(http_url) as client:
        websocket_record = client_episode(client)
    with Client.stdio(stdio_command, cwd=ROOT) as client:
        stdio_record = client_episode(client)
    assert graded(openenv_record)["reward"] == 1.0
    assert graded(openenv_record) == graded(websocket_record) == graded(stdio_record)
