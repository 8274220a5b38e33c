"""verifiers adapter: a `MultiTurnEnv` whose environment turns are patchgym steps.

Written against verifiers 0.3.0's classic API (`verifiers/legacy/envs/multiturn_env.py`, reached
as `import verifiers as vf`): `setup_state(state)`, `env_response(messages, state) -> messages`,
`state["final_env_response"]` to end the rollout, `@vf.cleanup` handlers and a `vf.Rubric` of
reward functions taking `state`. The model calls tools as `<tool_call>` text blocks (episodes are
reset with `tool_calls="text"`); the reward is patchgym's graded total.

    import verifiers as vf
    from patchgym.verifiers import PatchgymEnv, task_rows
    env = PatchgymEnv(dataset=Dataset.from_list(task_rows(["py-median-even"])),
                      url="http://127.0.0.1:8000")
"""
from .client import AsyncClient


def task_rows(task_ids):
    """Dataset rows naming the tasks; the real prompt comes from patchgym at reset."""
    return [
        {"prompt": [{"role": "user", "content": task_id}], "answer": "", "info": {"task_id": task_id}}
        for task_id in task_ids
    ]


async def patchgym_reward(state, **kwargs):
    """The graded total of the episode (0.0 until it ended)."""
    return float(state.get("patchgym", {}).get("reward", 0.0))


def _make_class(vf):
    class PatchgymEnv(vf.MultiTurnEnv):
        def __init__(self, client=None, url=None, command=None, reset_options=None, **kwargs):
            kwargs.setdefault("rubric", vf.Rubric(funcs=[patchgym_reward]))
            super().__init__(**kwargs)
            self._client = client
            self._url = url
            self._command = command
            self._reset_options = dict(reset_options or {})

        async def _connected(self):
            if self._client is None:
                self._client = (
                    await AsyncClient.connect(self._url)
                    if self._url
                    else await AsyncClient.stdio(self._command or ["patchgym", "serve", "--stdio"])
                )
            return self._client

        async def setup_state(self, state, **kwargs):
            client = await self._connected()
            info = state.get("info") or {}
            episode = await client.reset(
                task_id=info.get("task_id"), seed=info.get("seed"), tool_calls="text", **self._reset_options
            )
            state["prompt"] = episode.messages
            state["patchgym"] = {"episode_id": episode.episode_id, "task": episode.task, "reward": 0.0}
            return state

        async def env_response(self, messages, state, **kwargs):
            client = await self._connected()
            result = await client.step(state["patchgym"]["episode_id"], dict(messages[-1]))
            if result.done:
                state["patchgym"].update(
                    reward=result.reward,
                    stop_reason=result.stop_reason,
                    truncated=result.truncated,
                    record=result.record,
                )
                state["final_env_response"] = result.observation
            return result.observation

        @vf.cleanup
        async def close_patchgym_episode(self, state, **kwargs):
            episode = state.get("patchgym")
            if episode and self._client is not None:
                await self._client.close_episode(episode["episode_id"])

    return PatchgymEnv


def __getattr__(name):
    if name == "PatchgymEnv":
        import verifiers as vf  # imported only when used

        cls = _make_class(vf)
        globals()["PatchgymEnv"] = cls
        return cls
    raise AttributeError(name)


make_env_class = _make_class
