"""Clients for patchgym's trainer-driven protocol, over a `serve --stdio` subprocess or the
WebSocket of `serve --http`. Many episodes share one connection: every request carries an id and
its answer is matched by it, so requests of different episodes may be in flight at once.

    async with await AsyncClient.stdio() as client:     # or stdio(["patchgym", "serve", "--stdio"])
        episode = await client.reset(task_id="py-median-even")
        result = await client.step(episode.episode_id, message)

`Client` is the same API without `await`, safe to use from several threads.
"""
import asyncio
import collections
import itertools
import json
import os
import shutil
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ._websocket import WebSocket
from .errors import ConnectionClosed, error_from


@dataclass
class Reset:
    """The answer to a reset: the episode, its task, the first messages and the tool schemas."""

    episode_id: str
    task: Dict[str, Any]
    messages: List[Dict[str, Any]]
    tools: List[Dict[str, Any]]
    limits: Dict[str, Any]
    raw: Dict[str, Any] = field(repr=False, default_factory=dict)


@dataclass
class StepResult:
    """The answer to a step or finish. `reward` is 0.0 until the end; `record` comes at the end."""

    observation: List[Dict[str, Any]]
    reward: float
    done: bool
    terminated: bool
    truncated: bool
    stop_reason: Optional[str]
    info: Dict[str, Any]
    record: Optional[Dict[str, Any]] = None
    raw: Dict[str, Any] = field(repr=False, default_factory=dict)


def _reset(answer):
    return Reset(
        answer["episode_id"], answer["task"], answer["messages"], answer["tools"], answer["limits"], answer
    )


def _step(answer):
    return StepResult(
        answer["observation"],
        float(answer["reward"]),
        answer["done"],
        answer["terminated"],
        answer["truncated"],
        answer["stop_reason"],
        answer["info"],
        answer.get("record"),
        answer,
    )


def _checkouts():
    """patchgym checkouts this package may belong to: PATCHGYM_HOME, the one it is imported from
    (clients/python/patchgym in a checkout), and the one it was built from (pip install)."""
    roots = [os.environ.get("PATCHGYM_HOME")]
    roots.append(os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..")))
    try:
        from ._checkout import CHECKOUT  # written by the build backend

        roots.append(CHECKOUT)
    except ImportError:
        pass
    return [r for r in roots if r and os.path.isfile(os.path.join(r, "deno.json"))]


def default_command():
    """The command of `serve --stdio` from any folder: `deno task` with the checkout's deno.json
    (PATCHGYM_HOME, else the checkout this package comes from), else the compiled `patchgym` on
    PATH."""
    for root in _checkouts():
        return ["deno", "task", "-q", "--config", os.path.join(root, "deno.json"), "patchgym", "serve", "--stdio"]
    binary = shutil.which("patchgym")
    if binary:
        return [binary, "serve", "--stdio"]
    raise ConnectionClosed(
        "Cannot find patchgym to start: set PATCHGYM_HOME to a patchgym checkout, put the compiled "
        "patchgym on PATH, or pass the command, e.g. Client.stdio([\"deno\", \"task\", \"--config\", "
        "\"/path/to/patchgym/deno.json\", \"serve\"])"
    )


class _StdioTransport:
    def __init__(self, process, command, stderr_lines=None):
        self._process = process
        self._command = command
        # The end of the server's stderr (also passed on to ours), for the error when it exits.
        self._stderr_lines = stderr_lines

    async def send(self, text):
        if self._process.stdin.is_closing():
            raise ConnectionClosed("The server's stdin is closed")
        self._process.stdin.write(text.encode() + b"\n")
        await self._process.stdin.drain()

    async def recv(self):
        line = await self._process.stdout.readline()
        if not line:
            raise ConnectionClosed(await self._exit_message())
        return line.decode()

    async def _exit_message(self):
        try:
            code = await asyncio.wait_for(self._process.wait(), 5)
        except asyncio.TimeoutError:
            code = None
        what = f"exited with code {code}" if code is not None else "closed its stdout"
        message = f"The server {what}: {' '.join(self._command)}"
        if self._stderr_lines:
            message += "; the end of its stderr:\n" + "\n".join(self._stderr_lines)
        return message

    async def close(self):
        if not self._process.stdin.is_closing():
            self._process.stdin.close()
        try:
            await asyncio.wait_for(self._process.wait(), 30)
        except asyncio.TimeoutError:
            self._process.kill()
            await self._process.wait()


async def _pass_on(stream, keep):
    """Copy a server's stderr to ours line by line, keeping the last lines in `keep`."""
    while True:
        line = await stream.readline()
        if not line:
            return
        text = line.decode("utf-8", "replace")
        keep.append(text.rstrip("\n"))
        sys.stderr.write(text)
        sys.stderr.flush()


class AsyncClient:
    """The asyncio client. Create it with `await AsyncClient.stdio(...)` or `.connect(url)`."""

    def __init__(self, transport):
        self._transport = transport
        self._ids = itertools.count(1)
        self._pending = {}
        self._reader = asyncio.ensure_future(self._read())
        self._stderr = None
        self._closed = None

    @classmethod
    async def stdio(cls, command=None, **popen):
        """Start `command` (e.g. `["patchgym", "serve", "--stdio"]`; default: `default_command()`)
        and talk over its pipes. Its stderr goes on to ours; when it exits, the error says its
        exit code and the end of its stderr."""
        command = list(command) if command is not None else default_command()
        stderr_lines = None
        if "stderr" not in popen:
            popen["stderr"] = asyncio.subprocess.PIPE
            stderr_lines = collections.deque(maxlen=20)
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 30,
            **popen,
        )
        client = cls(_StdioTransport(process, command, stderr_lines))
        if stderr_lines is not None:
            client._stderr = asyncio.ensure_future(_pass_on(process.stderr, stderr_lines))
        return client

    @classmethod
    async def connect(cls, url):
        """Connect to `serve --http`: `http://HOST:PORT` (its `/ws`) or a full `ws://.../ws`."""
        if not url.rstrip("/").endswith("/ws"):
            url = url.rstrip("/") + "/ws"
        return cls(await WebSocket.connect(url))

    async def _read(self):
        try:
            while True:
                answer = json.loads(await self._transport.recv())
                future = self._pending.pop(answer.get("id"), None)
                if future is not None and not future.done():
                    future.set_result(answer)
        except Exception as error:  # the connection is gone: fail every waiting request
            self._closed = error if isinstance(error, ConnectionClosed) else ConnectionClosed(str(error))
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(self._closed)
            self._pending.clear()

    async def request(self, op, **fields):
        """Send one request and wait for its answer; raises the typed error of an error answer."""
        if self._closed is not None:
            raise self._closed
        request_id = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        await self._transport.send(json.dumps({"op": op, "id": request_id, **fields}))
        answer = await future
        if "error" in answer:
            raise error_from(answer)
        return answer

    async def reset(self, task_id=None, seed=None, **options):
        """Open an episode: `task_id`, or `seed` to pick one; options: `limits`, `tool_calls`,
        `episode_id`, `group_id`, `sample`."""
        fields = {k: v for k, v in dict(task_id=task_id, seed=seed, **options).items() if v is not None}
        return _reset(await self.request("reset", **fields))

    async def step(self, episode_id, message, tokens=None, usage=None, finish_reason=None):
        """Send the model's assistant message (with its token ids, logprobs and usage if known)."""
        fields = {"episode_id": episode_id, "message": message}
        for name, value in (("tokens", tokens), ("usage", usage), ("finish_reason", finish_reason)):
            if value is not None:
                fields[name] = value
        return _step(await self.request("step", **fields))

    async def finish(self, episode_id):
        """End the episode now and grade it (again: the same answer)."""
        return _step(await self.request("finish", episode_id=episode_id))

    async def close_episode(self, episode_id):
        """Close an episode and remove its workspace; closing twice is fine."""
        await self.request("close", episode_id=episode_id)

    async def state(self, episode_id):
        return await self.request("state", episode_id=episode_id)

    async def tasks(self):
        """Every task with its metadata."""
        return (await self.request("tasks"))["tasks"]

    async def close(self):
        """Close the connection (the stdio server then exits)."""
        await self._transport.close()
        try:
            await asyncio.wait_for(self._reader, 30)
        except asyncio.TimeoutError:
            self._reader.cancel()
        if self._stderr is not None:
            try:
                await asyncio.wait_for(self._stderr, 5)
            except asyncio.TimeoutError:
                self._stderr.cancel()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self.close()


class Client:
    """The same API as `AsyncClient` without `await`: it runs one on a private event loop thread,
    so several threads may use one client at once."""

    def __init__(self, make):
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True, name="patchgym-client")
        self._thread.start()
        try:
            self._client = self._run(make())
        except BaseException:
            self._stop()
            raise

    @classmethod
    def stdio(cls, command=None, **popen):
        """Start `command` (default: `default_command()`) and talk over its pipes."""
        return cls(lambda: AsyncClient.stdio(command, **popen))

    @classmethod
    def connect(cls, url):
        return cls(lambda: AsyncClient.connect(url))

    def _run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def request(self, op, **fields):
        return self._run(self._client.request(op, **fields))

    def reset(self, task_id=None, seed=None, **options):
        return self._run(self._client.reset(task_id, seed, **options))

    def step(self, episode_id, message, tokens=None, usage=None, finish_reason=None):
        return self._run(self._client.step(episode_id, message, tokens, usage, finish_reason))

    def finish(self, episode_id):
        return self._run(self._client.finish(episode_id))

    def close_episode(self, episode_id):
        return self._run(self._client.close_episode(episode_id))

    def state(self, episode_id):
        return self._run(self._client.state(episode_id))

    def tasks(self):
        return self._run(self._client.tasks())

    def close(self):
        try:
            self._run(self._client.close())
        finally:
            self._stop()

    def _stop(self):
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(30)
        self._loop.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def tool_call_message(name, arguments, call_id=None, content=None):
    """An assistant message with one native tool call, as a model with tool calling produces it."""
    return {
        "role": "assistant",
        "content": content,
        "tool_calls": [
            {
                "id": call_id or f"call_{name}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
        ],
    }
