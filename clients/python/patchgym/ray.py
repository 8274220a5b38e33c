"""A pool of patchgym environments on a Ray cluster, for trainers whose rollout workers are Ray
actors (verl, SkyRL, OpenRLHF, NeMo-RL, AReaL, slime). Imports Ray only when used.

Each replica is a Ray actor that runs one `serve --stdio` process on its node and reserves
`num_cpus` there for the tests that process runs. An episode is routed to the least loaded replica
at `reset` and stays there. When a replica or its node dies mid-episode, Ray restarts the replica
(on another node if need be) and the pool answers that episode's next call with a result that
ends it: `done`, `stop_reason` `"environment_error"`, `info["error"]` saying what died, `record`
None. Never a hang (every call has a deadline) and never a silent zero reward.

    pool = EnvPool(replicas=8, command=["patchgym", "serve", "--stdio"])
    episode = await pool.reset(task_id="py-median-even")
    result = await pool.step(episode.episode_id, assistant_message, tokens=..., usage=...)

Every node needs this package (`pip install ./clients/python`) and the serve command.

Trust: anyone who can reach the Ray cluster (its GCS port, its dashboard, its nodes) can run any
code on every node, replicas included; Ray has no authentication of its own here. Keep the cluster
on a private network only the trainer's machines reach. The pool warns (`ClusterNotPrivate`) when
the cluster or one of its nodes has an address that is not private.
"""
import asyncio
import ipaddress
import json
import os
import shutil
import socket
import sys
import uuid
import warnings

from .client import AsyncClient, Reset, StepResult, _reset, _step
from .errors import ConnectionClosed, PatchgymError, UnknownEpisode, error_from

#: `stop_reason` of an episode lost with its replica.
ENVIRONMENT_ERROR = "environment_error"


class ClusterNotPrivate(UserWarning):
    """The Ray cluster is reachable at an address that is not private: anyone who reaches it can
    run code on its nodes."""


def public_addresses(addresses):
    """The addresses (IPs or host names, with or without a port) that are not loopback, private
    (RFC 1918, unique local) or link-local."""
    found = []
    for address in addresses:
        if not address:
            continue
        host = str(address)
        if host.count(":") == 1 or (host.startswith("[") and "]:" in host):
            host = host.rsplit(":", 1)[0]
        host = host.strip("[]")
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            try:
                ip = ipaddress.ip_address(socket.gethostbyname(host))
            except (OSError, ValueError):
                found.append(str(address))
                continue
        if not (ip.is_private or ip.is_loopback or ip.is_link_local):
            found.append(str(address))
    return found


def warn_if_not_private(ray):
    """Warn (`ClusterNotPrivate`, also on stderr) when the connected cluster or one of its nodes
    has an address that is not private. Returns those addresses."""
    addresses = []
    try:
        addresses.append(ray.get_runtime_context().gcs_address)
    except Exception:  # noqa: BLE001 - an older Ray without it: check the nodes alone
        pass
    try:
        addresses += [n.get("NodeManagerAddress") for n in ray.nodes() if n.get("Alive")]
    except Exception:  # noqa: BLE001
        pass
    public = public_addresses(addresses)
    if public:
        message = (
            f"patchgym: the Ray cluster is reachable at {', '.join(sorted(set(public)))}, which is not a "
            "private address: anyone who reaches it can run code on its nodes; bind Ray to a private "
            "network (ray start --node-ip-address PRIVATE_IP) or firewall it"
        )
        warnings.warn(message, ClusterNotPrivate, stacklevel=3)
        print(message, file=sys.stderr)
    return public


class ReplicaUnavailable(PatchgymError):
    """No replica could take a new episode (every one is dead or restarting)."""

    code = "replica_unavailable"


def default_command(*args):
    """`patchgym ARGS` (default `serve --stdio`) with the compiled binary when it is on PATH,
    else `deno task -q patchgym ARGS` (run it from a checkout: pass `cwd`)."""
    args = list(args or ("serve", "--stdio"))
    binary = shutil.which("patchgym")
    if binary:
        return [binary, *args]
    return ["deno", "task", "-q", "patchgym", *args]


class Replica:
    """One environment replica: a `serve --stdio` process owned by this (actor) process. The pool
    runs it as a Ray actor; it is a plain class so it can be tested without Ray."""

    def __init__(self, command, cwd=None, env=None):
        self._command = list(command)
        self._cwd = cwd
        self._env = env
        self._client = None
        self._lock = None
        #: Changes whenever the replica (re)starts: episodes of an earlier incarnation are gone.
        self.incarnation = uuid.uuid4().hex

    async def _connected(self):
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self._client is None:
                env = None if self._env is None else {**os.environ, **self._env}
                self._client = await AsyncClient.stdio(self._command, cwd=self._cwd, env=env)
        return self._client

    async def call(self, op, fields):
        """One protocol request; the answer (or `{"error"}`) with this replica's incarnation."""
        client = await self._connected()
        try:
            answer = await client.request(op, **fields)
        except ConnectionClosed:
            # The serve process died: end this process so Ray restarts the replica afresh.
            os._exit(1)
        except PatchgymError as error:
            answer = {"error": {"code": error.code, "message": error.message}}
        return {"incarnation": self.incarnation, "answer": answer}

    async def info(self):
        """Where the replica runs: node id (under Ray), actor pid, serve pid, incarnation."""
        client = await self._connected()
        node = None
        try:
            import ray

            node = ray.get_runtime_context().get_node_id()
        except Exception:  # not under Ray
            pass
        process = getattr(client._transport, "_process", None)
        return {
            "incarnation": self.incarnation,
            "node_id": node,
            "pid": os.getpid(),
            "serve_pid": process.pid if process else None,
        }


class _Lost(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message


def lost_result(episode_id, message):
    """The result that ends an episode whose replica died: `environment_error`, no record."""
    return StepResult(
        observation=[],
        reward=0.0,
        done=True,
        terminated=False,
        truncated=True,
        stop_reason=ENVIRONMENT_ERROR,
        info={
            "error": {"code": "replica_lost", "message": message},
            "stop_reason": ENVIRONMENT_ERROR,
            "episode_id": episode_id,
        },
        record=None,
    )


class EnvPool:
    """`replicas` serve replicas as Ray actors. Call from any asyncio code (a Ray actor of the
    trainer, a driver); many episodes may be in flight at once.

    - `command`, `cwd`, `env`: how each replica starts serve (default: `default_command()`).
    - `num_cpus`: CPUs reserved per replica for its test runs (default 1).
    - `spread`: place replicas on different nodes where possible (Ray's SPREAD strategy).
    - `call_timeout_s`: deadline of one call; past it the episode ends as `environment_error`.
    - `max_episodes`: episodes one replica runs at once (also serve's `--max-episodes`).
    - `name`: name the replicas `NAME-0`, `NAME-1`, ... so that several processes (a trainer's
      rollout workers) share them: each `EnvPool(name=...)` finds the ones already running.
    """

    def __init__(
        self,
        replicas=2,
        command=None,
        cwd=None,
        env=None,
        num_cpus=1,
        spread=True,
        call_timeout_s=900.0,
        max_episodes=64,
        name=None,
    ):
        import ray

        self._ray = ray
        if ray.is_initialized():
            warn_if_not_private(ray)
        command = list(command or default_command())
        if "--max-episodes" not in command:
            command += ["--max-episodes", str(max_episodes)]
        actor_class = ray.remote(
            num_cpus=num_cpus, max_restarts=-1, max_task_retries=0, max_concurrency=max_episodes + 8
        )(Replica)
        options = {"scheduling_strategy": "SPREAD"} if spread else {}
        if name:
            options.update(get_if_exists=True, lifetime="detached")
        self._actors = [
            actor_class.options(**options, **({"name": f"{name}-{i}"} if name else {})).remote(command, cwd, env)
            for i in range(replicas)
        ]
        self._timeout = call_timeout_s
        self._episodes = {}  # episode id -> (replica index, incarnation)
        self._load = [0] * replicas

    @property
    def replicas(self):
        return len(self._actors)

    def replica_of(self, episode_id):
        """The index of the replica an open episode runs on, or None."""
        placed = self._episodes.get(episode_id)
        return placed[0] if placed else None

    async def _call(self, index, op, fields):
        ref = self._actors[index].call.remote(op, fields)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(ref.future()), self._timeout)
        except asyncio.TimeoutError:
            raise _Lost(f"replica {index} did not answer {op} within {self._timeout} s")
        except self._ray.exceptions.RayError as error:
            detail = str(error).strip().splitlines()[0][:300] if str(error).strip() else ""
            raise _Lost(f"replica {index} died ({type(error).__name__}: {detail}); it is being restarted")

    async def reset(self, task_id=None, seed=None, **options):
        """Open an episode on the least loaded replica (see `AsyncClient.reset`). A replica that is
        down is skipped; `ReplicaUnavailable` when none answers."""
        fields = {k: v for k, v in dict(task_id=task_id, seed=seed, **options).items() if v is not None}
        order = sorted(range(len(self._actors)), key=lambda i: self._load[i])
        problems = []
        for index in order:
            self._load[index] += 1  # counted at once, so concurrent resets spread
            try:
                out = await self._call(index, "reset", fields)
            except _Lost as lost:
                self._load[index] -= 1
                problems.append(lost.message)
                continue
            if "error" in out["answer"]:
                self._load[index] -= 1
                raise error_from(out["answer"])
            reset = _reset(out["answer"])
            self._episodes[reset.episode_id] = (index, out["incarnation"])
            return reset
        raise ReplicaUnavailable("No replica could open an episode: " + "; ".join(problems))

    async def _episode_call(self, episode_id, op, fields):
        placed = self._episodes.get(episode_id)
        if placed is None:
            raise UnknownEpisode(f'Episode "{episode_id}" is not open in this pool')
        index, incarnation = placed
        try:
            out = await self._call(index, op, {"episode_id": episode_id, **fields})
        except _Lost as lost:
            self._forget(episode_id)
            return lost_result(episode_id, f'Episode "{episode_id}" was lost: {lost.message}')
        if out["incarnation"] != incarnation:
            self._forget(episode_id)
            return lost_result(
                episode_id,
                f'Episode "{episode_id}" was lost: replica {index} restarted since the episode began',
            )
        if "error" in out["answer"]:
            raise error_from(out["answer"])
        result = _step(out["answer"])
        if result.done:
            self._forget(episode_id)
            # The record is in the answer; free the server's copy without waiting.
            self._actors[index].call.remote("close", {"episode_id": episode_id})
        return result

    def _forget(self, episode_id):
        placed = self._episodes.pop(episode_id, None)
        if placed:
            self._load[placed[0]] -= 1

    async def step(self, episode_id, message, tokens=None, usage=None, finish_reason=None):
        """Send the model's assistant message; see `AsyncClient.step`."""
        fields = {"message": message}
        for name, value in (("tokens", tokens), ("usage", usage), ("finish_reason", finish_reason)):
            if value is not None:
                fields[name] = value
        return await self._episode_call(episode_id, "step", fields)

    async def finish(self, episode_id):
        """End the episode now and grade it."""
        return await self._episode_call(episode_id, "finish", {})

    async def close_episode(self, episode_id):
        """Discard an open episode ungraded; fine if it is already gone."""
        placed = self._episodes.get(episode_id)
        self._forget(episode_id)
        if placed:
            try:
                await self._call(placed[0], "close", {"episode_id": episode_id})
            except _Lost:
                pass

    async def info(self, timeout_s=10.0):
        """Each replica's `Replica.info()`, or `{"error"}` for one that is down or restarting."""
        out = []
        for index in range(len(self._actors)):
            ref = self._actors[index].info.remote()
            try:
                out.append(await asyncio.wait_for(asyncio.wrap_future(ref.future()), timeout_s))
            except (asyncio.TimeoutError, self._ray.exceptions.RayError) as error:
                out.append({"error": f"{type(error).__name__}: {error}"})
        return out

    async def wait_healthy(self, timeout_s=120.0):
        """Wait until every replica answers (after restarts); returns `info()`."""
        deadline = asyncio.get_running_loop().time() + timeout_s
        while True:
            info = await self.info()
            if all("error" not in i for i in info):
                return info
            if asyncio.get_running_loop().time() > deadline:
                raise ReplicaUnavailable(f"Replicas still down after {timeout_s} s: {info}")
            await asyncio.sleep(0.5)

    def shutdown(self):
        """Kill every replica (their serve processes end with them)."""
        for actor in self._actors:
            self._ray.kill(actor, no_restart=True)
        self._actors = []
        self._episodes.clear()


# Batch rollouts over Ray (`patchgym rollout --ray ADDRESS` runs this module as its driver).


class JobReplica:
    """A `worker --stdio` process owned by this (actor) process: runs whole samples (model calls
    included) and answers each job with its record. Run as a Ray actor by `run_jobs`."""

    def __init__(self, command, cwd=None, env=None):
        self._command = list(command)
        self._cwd = cwd
        self._env = env
        self._process = None
        self._waiting = {}
        self._lock = None
        self.incarnation = uuid.uuid4().hex

    async def _started(self):
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self._process is None:
                env = None if self._env is None else {**os.environ, **self._env}
                self._process = await asyncio.create_subprocess_exec(
                    *self._command, cwd=self._cwd, env=env, stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE, limit=1 << 30,
                )
                asyncio.ensure_future(self._read())
        return self._process

    async def _read(self):
        while True:
            line = await self._process.stdout.readline()
            if not line:
                # The worker died: end this process so Ray restarts the replica afresh.
                os._exit(1)
            answer = json.loads(line)
            future = self._waiting.pop(answer.get("episode_id"), None)
            if future is not None and not future.done():
                future.set_result(answer)

    async def run(self, job):
        """Run one job; its `{"kind": "record"|"error", ...}` answer."""
        process = await self._started()
        future = asyncio.get_running_loop().create_future()
        self._waiting[job["episode_id"]] = future
        process.stdin.write(json.dumps(job).encode() + b"\n")
        await process.stdin.drain()
        return await future

    async def info(self):
        process = await self._started()
        import ray

        return {
            "incarnation": self.incarnation,
            "node_id": ray.get_runtime_context().get_node_id(),
            "pid": os.getpid(),
            "worker_pid": process.pid,
        }


async def run_jobs(jobs, emit, replicas=2, command=None, cwd=None, env=None, num_cpus=1,
                   concurrency=1, spread=True, job_timeout_s=3600.0):
    """Run rollout jobs (`patchgym.job.v1`) on `replicas` `worker --stdio` actors, calling
    `emit(result)` with each `{"kind": "record", "episode_id", "record"}`, or `{"kind": "failed",
    ...}` for a job that failed `max_attempts` times (its replica died, or could not run it)."""
    import ray

    command = list(command or default_command("worker", "--stdio"))
    if "--concurrency" not in command:
        command += ["--concurrency", str(concurrency)]
    actor_class = ray.remote(
        num_cpus=num_cpus, max_restarts=-1, max_task_retries=0, max_concurrency=concurrency + 8
    )(JobReplica)
    options = {"scheduling_strategy": "SPREAD"} if spread else {}
    actors = [actor_class.options(**options).remote(command, cwd, env) for _ in range(replicas)]
    slots = asyncio.Queue()
    for index in range(replicas):
        for _ in range(concurrency):
            slots.put_nowait(index)

    async def one(job):
        attempt = 0
        problem = ""
        while attempt < job.get("max_attempts", 3):
            attempt += 1
            index = await slots.get()
            try:
                ref = actors[index].run.remote(job)
                answer = await asyncio.wait_for(asyncio.wrap_future(ref.future()), job_timeout_s)
            except asyncio.TimeoutError:
                problem = f"replica {index} did not finish it within {job_timeout_s} s"
                continue
            except ray.exceptions.RayError as error:
                problem = f"replica {index} died ({type(error).__name__})"
                continue
            finally:
                slots.put_nowait(index)
            if answer.get("kind") == "record":
                emit(answer)
                return
            problem = f"replica {index} could not run it: {answer.get('error', {}).get('message')}"
        emit({
            "kind": "failed", "episode_id": job["episode_id"], "task_id": job["task_id"],
            "sample": job["sample"], "attempts": attempt,
            "error": {"code": "job_failed",
                      "message": f'Job "{job["episode_id"]}" failed on {attempt} attempt(s); last: {problem}'},
        })

    try:
        await asyncio.gather(*(one(job) for job in jobs))
    finally:
        for actor in actors:
            ray.kill(actor, no_restart=True)


def _main(argv):
    import argparse
    import sys

    parser = argparse.ArgumentParser(
        prog="python -m patchgym.ray",
        description="Driver of `patchgym rollout --ray`: jobs as JSON lines on stdin, results on "
        "stdout. After `--`: the replicas' command (default: patchgym worker --stdio).",
    )
    parser.add_argument("mode", choices=["rollout", "check"])
    parser.add_argument("--address", required=True, help="the Ray cluster, e.g. 127.0.0.1:6379")
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--num-cpus", type=float, default=1)
    parser.add_argument("--concurrency", type=int, default=1, help="samples at once per replica")
    parser.add_argument("--cwd", default=None, help="working folder of the replicas' command")
    command = []
    if "--" in argv:  # the replicas' command follows
        command = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    args = parser.parse_args(argv)
    import ray

    if os.environ.get("PATCHGYM_RAY_KEEP_LOOPBACK") == "1":
        # Ray 2.58 replaces 127.0.0.1 with the machine's outward address; keep it (one-machine tests).
        import ray._private.services as services

        services.resolve_ip_for_localhost = lambda host: host
    host = args.address.rsplit(":", 1)[0]
    init = {"_node_ip_address": host} if host in ("127.0.0.1", "localhost") else {}
    ray.init(address=args.address, logging_level="ERROR", log_to_driver=False, **init)
    warn_if_not_private(ray)
    if args.mode == "check":
        try:
            nodes = [n for n in ray.nodes() if n["Alive"]]
            print(json.dumps({
                "ray": ray.__version__,
                "nodes": len(nodes),
                "cpus": ray.cluster_resources().get("CPU", 0),
                "free_cpus": ray.available_resources().get("CPU", 0),
            }))
        finally:
            ray.shutdown()
        return 0
    jobs = [json.loads(line) for line in sys.stdin if line.strip()]

    def emit(result):
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()

    try:
        asyncio.run(run_jobs(jobs, emit, replicas=args.replicas, command=command or None,
                             cwd=args.cwd, num_cpus=args.num_cpus, concurrency=args.concurrency))
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(_main(sys.argv[1:]))
