import asyncio
import os
import threading

import pytest

from patchgym import (
    AsyncClient,
    BadRequest,
    Client,
    ConnectionClosed,
    EpisodeDone,
    UnknownEpisode,
    UnknownTask,
    default_command,
    tool_call_message,
)
from patchgym._websocket import _xor, accept_key, encode_frame

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def make_client(kind, stdio_command, http_url_factory):
    if kind == "stdio":
        return Client.stdio(stdio_command, cwd=ROOT)
    return Client.connect(http_url_factory())


@pytest.fixture(params=["stdio", "websocket"])
def client(request, stdio_command):
    if request.param == "stdio":
        c = Client.stdio(stdio_command, cwd=ROOT)
    else:
        c = Client.connect(request.getfixturevalue("http_url"))
    yield c
    c.close()


def solve(client, solution):
    episode = client.reset(task_id="py-median-even")
    first = client.step(
        episode.episode_id,
        tool_call_message("apply_patch", {"patch": solution}),
        tokens={"prompt_ids": [1, 2], "completion_ids": [3], "logprobs": [-0.5]},
        usage={"prompt_tokens": 2, "completion_tokens": 1},
    )
    last = client.step(episode.episode_id, tool_call_message("submit", {"status": "solved", "summary": "ok"}))
    return episode, first, last


def test_client_runs_a_graded_episode_to_its_record(client, solution):
    episode, first, last = solve(client, solution)
    assert episode.task["id"] == "py-median-even"
    assert first.reward == 0.0 and not first.done and first.record is None
    assert last.done and last.terminated and not last.truncated
    assert last.reward == 1.0
    assert last.stop_reason == "submitted"
    assert last.record["episode_id"] == episode.episode_id
    assert last.record["turns"][0]["tokens"]["completion_ids"] == [3]
    client.close_episode(episode.episode_id)
    client.close_episode(episode.episode_id)  # idempotent


def test_client_raises_typed_errors(client):
    with pytest.raises(UnknownTask):
        client.reset(task_id="no-such-task")
    with pytest.raises(UnknownEpisode):
        client.step("no-such-episode", tool_call_message("inspect_tree", {}))
    with pytest.raises(BadRequest):
        client.request("nope")
    episode = client.reset(task_id="py-median-even", limits={"max_turns": 1})
    assert client.step(episode.episode_id, tool_call_message("inspect_tree", {})).stop_reason == "max_turns"
    with pytest.raises(EpisodeDone):
        client.step(episode.episode_id, tool_call_message("inspect_tree", {}))


def test_client_lists_tasks_and_finishes_early(client):
    tasks = client.tasks()
    assert any(t["id"] == "py-median-even" for t in tasks)
    episode = client.reset(seed=0)
    assert episode.task["id"] == sorted(t["id"] for t in tasks)[0]
    result = client.finish(episode.episode_id)
    assert result.done and result.truncated and result.stop_reason == "finished"
    assert client.state(episode.episode_id)["done"] is True


def test_client_is_safe_from_many_threads(client):
    results, errors = [], []

    def run():
        try:
            episode = client.reset(task_id="py-median-even")
            results.append(client.step(episode.episode_id, tool_call_message("inspect_tree", {})).info["tool"]["ok"])
            client.close_episode(episode.episode_id)
        except Exception as error:  # collected for the assertion below
            errors.append(error)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == [] and results == [True] * 4


def test_async_client_runs_episodes_concurrently_over_one_connection(stdio_command, solution):
    async def main():
        async with await AsyncClient.stdio(stdio_command, cwd=ROOT) as client:
            async def one(submit):
                episode = await client.reset(task_id="py-median-even")
                if submit:
                    await client.step(episode.episode_id, tool_call_message("apply_patch", {"patch": solution}))
                return await client.step(
                    episode.episode_id, tool_call_message("submit", {"status": "solved", "summary": "x"})
                )

            return await asyncio.gather(one(True), one(False), one(True))

    rewards = [r.reward for r in asyncio.run(main())]
    assert rewards == [1.0, 0.0, 1.0]


def test_client_fails_waiting_requests_when_the_server_exits():
    client = Client.stdio(["python3", "-c", "import sys; sys.stdin.readline()"])
    try:
        with pytest.raises(ConnectionClosed):
            client.tasks()
    finally:
        client.close()


# Issue 25: a server that failed to start gave "ConnectionClosed (code None)" and nothing else.
def test_client_says_how_the_server_exited_and_what_it_printed(capfd):
    client = Client.stdio(["python3", "-c", "import sys; sys.stderr.write('no deno.json here\\n'); sys.exit(3)"])
    try:
        with pytest.raises(ConnectionClosed) as raised:
            client.tasks()
    finally:
        client.close()
    message = str(raised.value)
    assert "exited with code 3: python3 -c" in message
    assert message.endswith("the end of its stderr:\nno deno.json here")
    assert "no deno.json here" in capfd.readouterr().err  # passed on to ours as well


def test_default_command_runs_serve_from_the_checkout_from_any_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("PATCHGYM_HOME", raising=False)
    command = default_command()
    assert command == ["deno", "task", "-q", "--config", os.path.join(ROOT, "deno.json"), "patchgym", "serve", "--stdio"]
    monkeypatch.setenv("PATCHGYM_HOME", str(tmp_path))  # no deno.json there: not a checkout
    assert default_command() == command


def test_websocket_frames_follow_rfc_6455():
    # The example of RFC 6455 section 1.3.
    assert accept_key("dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    # Section 5.7: a masked "Hello".
    assert encode_frame(0x1, b"Hello", mask=bytes([0x37, 0xFA, 0x21, 0x3D])) == bytes(
        [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
    )
    big = encode_frame(0x1, b"x" * 70000, mask=b"\0\0\0\0")
    assert big[1] == 0x80 | 127 and int.from_bytes(big[2:10], "big") == 70000
    assert _xor(b"", b"abcd") == b""
