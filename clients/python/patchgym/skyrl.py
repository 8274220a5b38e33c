"""SkyRL-Gym adapter: a `BaseTextEnv` over a patchgym episode.

Written against skyrl-gym 0.4.0 (`skyrl_gym/envs/base_text_env.py`): `init(prompt) ->
(conversation, metadata)`, `step(action: str) -> {observations, reward, done, metadata,
postprocessed_action}`, `close()`. The model's text is the action: tool calls go in
`<tool_call>{"name": ..., "arguments": {...}}</tool_call>` blocks (the episode is reset with
`tool_calls="text"`, so the system prompt lists the tools in that form).

    from skyrl_gym.envs import register
    register(id="patchgym", entry_point="patchgym.skyrl:PatchgymEnv")
    # env_config: {"command": [...]} or {"url": "http://127.0.0.1:8000"}; extras: {"task_id": ...}
"""
from .client import Client


def _base_text_env():
    from skyrl_gym.envs.base_text_env import BaseTextEnv  # imported only when used

    return BaseTextEnv


def _make_class(base):
    class PatchgymEnv(base):
        """One patchgym episode per environment instance; the reward comes at the end."""

        def __init__(self, env_config=None, extras=None):
            super().__init__()
            config = dict(env_config or {})
            extras = dict(extras or {})
            self._client = config.get("client") or _client_from(config)
            self._owns_client = "client" not in config
            options = {k: extras[k] for k in ("task_id", "seed", "limits", "group_id", "sample") if k in extras}
            self._reset = self._client.reset(tool_calls="text", **options)
            self.episode_id = self._reset.episode_id
            self.max_turns = self._reset.limits["max_turns"]
            self.record = None

        def init(self, prompt=None):
            # The conversation comes from the task, not from the dataset's prompt.
            return self._reset.messages, {"task": self._reset.task, "episode_id": self.episode_id}

        def step(self, action):
            self.turns += 1
            result = self._client.step(self.episode_id, {"role": "assistant", "content": action})
            if result.done:
                self.record = result.record
            return {
                "observations": result.observation,
                "reward": result.reward,
                "done": result.done,
                "metadata": {
                    "stop_reason": result.stop_reason,
                    "terminated": result.terminated,
                    "truncated": result.truncated,
                    "info": result.info,
                },
                "postprocessed_action": None,
            }

        def close(self):
            self._client.close_episode(self.episode_id)
            if self._owns_client:
                self._client.close()

    return PatchgymEnv


def _client_from(config):
    if "url" in config:
        return Client.connect(config["url"])
    return Client.stdio(config.get("command") or ["patchgym", "serve", "--stdio"])


def __getattr__(name):
    # `patchgym.skyrl.PatchgymEnv` resolves against the installed skyrl_gym on first use.
    if name == "PatchgymEnv":
        cls = _make_class(_base_text_env())
        globals()["PatchgymEnv"] = cls
        return cls
    raise AttributeError(name)


make_env_class = _make_class
