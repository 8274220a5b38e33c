"""patchgym.ray on a real two-node Ray cluster on 127.0.0.1 (both nodes on this machine): episodes
spread over replicas and stay on theirs; a replica killed mid-episode, then a whole node killed,
end their episodes as environment_error and the pool is healthy again. Every Ray process the test
starts is in a process group it kills at the end, and nothing listens beyond 127.0.0.1."""
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed here (.ci/run installs it into a venv)")

from patchgym import tool_call_message  # noqa: E402
from patchgym.ray import ENVIRONMENT_ERROR, EnvPool  # noqa: E402

from _loopback_ray import keep_loopback  # noqa: E402
from conftest import ROOT, serve_argv  # noqa: E402

PACKAGE = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def free_port():
    # Ray's workers take 10002-19999 by default: stay out of it.
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if not 10002 <= port <= 19999:
            return port


def wait_port(port, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"Ray head did not listen on {port}")


def descendants(root):
    children = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(pid))
    out, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def ray_cli():
    return [sys.executable, os.path.join(os.path.dirname(__file__), "_loopback_ray.py")]


class Cluster:
    """A head and worker nodes, each `ray start --block` in its own process group."""

    def __init__(self):
        # Under the folder the Deno test made (it reads the logs from there on a failure).
        self.temp = tempfile.mkdtemp(prefix="pgray-", dir=os.environ.get("PATCHGYM_TEST_RAY_TEMP", "/tmp"))
        self.port = free_port()
        self.env = {
            **os.environ,
            "PYTHONPATH": PACKAGE + os.pathsep + os.environ.get("PYTHONPATH", ""),
            "RAY_USAGE_STATS_ENABLED": "0",
            # Notice a dead node within seconds, not the default half minute, but not a live
            # node that a loaded machine delays for a few seconds.
            "RAY_health_check_period_ms": "1000",
            "RAY_health_check_failure_threshold": "10",
        }
        self.nodes = []

    def _start(self, args):
        log = open(os.path.join(self.temp, f"node{len(self.nodes)}.log"), "w")
        process = subprocess.Popen(
            [*ray_cli(), "start", "--block", "--node-ip-address=127.0.0.1", "--num-cpus=2", *args,
             f"--dashboard-agent-listen-port={free_port()}", f"--metrics-export-port={free_port()}",
             f"--runtime-env-agent-port={free_port()}", "--disable-usage-stats"],
            env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        self.nodes.append(process)
        return process

    def start(self, workers=1):
        self._start(["--head", f"--port={self.port}", "--include-dashboard=false",
                     f"--temp-dir={self.temp}"])
        wait_port(self.port)
        for _ in range(workers):
            self._start([f"--address=127.0.0.1:{self.port}"])

    def kill(self, process):
        """SIGKILL a node: its `ray start`, and every process under it (raylet, workers, their
        serve processes), whatever process group they moved to."""
        for pid in [process.pid, *descendants(process.pid)]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        process.wait(30)

    def stop(self):
        for process in reversed(self.nodes):
            self.kill(process)
        # Anything of this cluster that left its group (found by the temp folder in its command).
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if self.temp.encode() in f.read():
                        os.kill(int(pid), signal.SIGKILL)
            except (OSError, ProcessLookupError):
                pass
        shutil.rmtree(self.temp, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster():
    c = Cluster()
    try:
        c.start(workers=1)
        keep_loopback()
        ray.init(address=f"127.0.0.1:{c.port}", _node_ip_address="127.0.0.1")
        deadline = time.time() + 120
        while sum(1 for n in ray.nodes() if n["Alive"]) < 2:
            assert time.time() < deadline, "the worker node did not join"
            time.sleep(0.5)
        yield c
    finally:
        ray.shutdown()
        c.stop()


@pytest.fixture(scope="module")
def pool(cluster):
    p = EnvPool(replicas=2, command=serve_argv() + ["--stdio"], cwd=ROOT, num_cpus=1,
                call_timeout_s=120)
    asyncio.run(p.wait_healthy(180))
    yield p
    p.shutdown()


@pytest.fixture(scope="module")
def solution():
    with open(os.path.join(ROOT, "tasks", "py-median-even", "solution.patch"), encoding="utf-8") as f:
        return f.read()


async def solve(pool, solution, sample):
    episode = await pool.reset(task_id="py-median-even", sample=sample)
    replica = pool.replica_of(episode.episode_id)
    first = await pool.step(episode.episode_id, tool_call_message("apply_patch", {"patch": solution}))
    assert pool.replica_of(episode.episode_id) == replica  # sticky
    last = await pool.step(episode.episode_id, tool_call_message("submit", {"status": "solved", "summary": "ok"}))
    return replica, first, last


def test_pool_spreads_replicas_and_grades_a_batch(pool, solution):
    info = asyncio.run(pool.wait_healthy(60))
    assert len({i["node_id"] for i in info}) == 2, info

    async def batch():
        return await asyncio.gather(*(solve(pool, solution, s) for s in range(6)))

    results = asyncio.run(batch())
    assert {replica for replica, _, _ in results} == {0, 1}
    records = [last.record for _, _, last in results]
    assert all(last.done and last.reward == 1.0 for _, _, last in results)
    assert len({r["episode_id"] for r in records}) == 6  # one graded record per sample


def patchgym_argv(command):
    """The argv of `patchgym COMMAND` through the launcher (which grants what the command line
    needs, e.g. running this Python for --ray)."""
    raw = os.environ.get("PATCHGYM_TEST_LAUNCHER")
    return (json.loads(raw) if raw else ["deno", "task", "-q", "patchgym"]) + command


def cmdline(pid):
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return f.read()


def parent(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def busy_replica_actor(roots, exclude):
    """The pid of a replica actor whose `worker --stdio` is running a sample, or None."""
    for root in roots:
        for pid in descendants(root):
            if pid in exclude:
                continue
            try:
                if b"worker\0--stdio" not in cmdline(pid) or not descendants(pid):
                    continue
                # Up through the launcher (also "worker --stdio") to the actor that started it.
                actor = parent(pid)
                while b"worker\0--stdio" in cmdline(actor):
                    actor = parent(actor)
                return actor
            except OSError:
                continue
    return None


def test_rollout_ray_gives_one_record_per_sample_when_a_replica_dies_mid_run(cluster, tmp_path):
    run_dir = os.path.join("runs", f"test-ray-{os.getpid()}-{time.time_ns()}")
    script = os.path.join(run_dir, "script.json")
    os.makedirs(os.path.join(ROOT, run_dir))
    try:
        with open(os.path.join(ROOT, script), "w") as f:
            json.dump([
                {"tool": "run_command", "arguments": {"argv": ["python3", "-c", "import time; time.sleep(1.5)"]}},
                {"tool": "submit", "arguments": {"status": "blocked", "summary": "slept"}},
            ], f)
        env = {**cluster.env, "PATCHGYM_RAY_KEEP_LOOPBACK": "1"}
        before = set(descendants(cluster.nodes[0].pid)) | set(descendants(cluster.nodes[1].pid))
        rollout = subprocess.Popen(
            patchgym_argv([
                "rollout", "--ray", f"127.0.0.1:{cluster.port}", "--ray-python", sys.executable,
                "--ray-command", json.dumps(patchgym_argv(["worker", "--stdio"])),
                "--tasks", "py-median-even,py-cron-next-run", "--samples", "2",
                "--policy", "scripted", "--script", script, "--out", os.path.join(run_dir, "run"),
            ]),
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        # Kill a replica (its actor process) while it runs a sample.
        deadline = time.time() + 180
        victim = None
        while victim is None and time.time() < deadline and rollout.poll() is None:
            victim = busy_replica_actor([n.pid for n in cluster.nodes], before)
            time.sleep(0.1)
        assert victim is not None, "no replica ran a sample: " + (rollout.communicate()[1] if rollout.poll() is not None else "")
        os.kill(victim, signal.SIGKILL)
        out, err = rollout.communicate(timeout=300)
        assert rollout.returncode == 0, err
        with open(os.path.join(ROOT, run_dir, "run", "trajectories.jsonl")) as f:
            records = [json.loads(line) for line in f if line.strip()]
        assert len(records) == 4
        assert len({r["episode_id"] for r in records}) == 4
        assert all(r["stop_reason"] == "submitted" and r["reward"] is not None for r in records)
        with open(os.path.join(ROOT, run_dir, "run", "summary.json")) as f:
            assert json.load(f)["complete"] is True
    finally:
        shutil.rmtree(os.path.join(ROOT, run_dir), ignore_errors=True)


async def open_on_both(pool, solution):
    """Two episodes, one per replica, each one step in."""
    episodes = [await pool.reset(task_id="py-median-even") for _ in range(2)]
    by_replica = {pool.replica_of(e.episode_id): e for e in episodes}
    assert set(by_replica) == {0, 1}
    for e in episodes:
        step = await pool.step(e.episode_id, tool_call_message("apply_patch", {"patch": solution}))
        assert not step.done
    return by_replica


async def finish_and_check(pool, by_replica, dead):
    dead_result = await pool.step(by_replica[dead].episode_id, tool_call_message("submit", {"status": "solved", "summary": "ok"}))
    assert dead_result.done and dead_result.stop_reason == ENVIRONMENT_ERROR
    assert dead_result.info["error"]["code"] == "replica_lost"
    assert dead_result.record is None
    alive = by_replica[1 - dead]
    alive_result = await pool.step(alive.episode_id, tool_call_message("submit", {"status": "solved", "summary": "ok"}))
    assert alive_result.reward == 1.0 and alive_result.record["episode_id"] == alive.episode_id


# Runs before the replica test: a replica restarted after that one could land on either node,
# while here each node still holds the replica SPREAD placed there at the start.
def test_pool_survives_a_dead_node(pool, cluster, solution):
    async def scenario():
        by_replica = await open_on_both(pool, solution)
        info = await pool.info()
        head_node = next(n["NodeID"] for n in ray.nodes() if "node:__internal_head__" in n["Resources"])
        # The driver is attached to the head's raylet, which stays up.
        assert ray.get_runtime_context().get_node_id() == head_node
        dead = next(i for i, r in enumerate(info) if r["node_id"] != head_node)
        cluster.kill(cluster.nodes[1])  # the worker node: raylet, its workers, their serve processes
        await finish_and_check(pool, by_replica, dead=dead)
        after = await pool.wait_healthy(180)
        assert all(i["node_id"] == head_node for i in after)  # restarted on the surviving node
        results = await asyncio.gather(*(solve(pool, solution, s) for s in range(2)))
        assert all(last.reward == 1.0 for _, _, last in results)

    asyncio.run(scenario())


def test_pool_ends_a_killed_replicas_episode_as_environment_error_and_restarts_it(pool, solution):
    async def scenario():
        by_replica = await open_on_both(pool, solution)
        before = await pool.info()
        os.kill(before[0]["pid"], signal.SIGKILL)
        await finish_and_check(pool, by_replica, dead=0)
        after = await pool.wait_healthy(180)
        assert after[0]["incarnation"] != before[0]["incarnation"]
        # Healthy again: both replicas grade new episodes.
        results = await asyncio.gather(*(solve(pool, solution, s) for s in range(2)))
        assert {r for r, _, _ in results} == {0, 1}
        assert all(last.reward == 1.0 for _, _, last in results)

    asyncio.run(scenario())
