"""OpenEnv adapter. `serve --http` speaks OpenEnv's API, so OpenEnv's own `GenericEnvClient`
works with no adapter; this module adds a typed `EnvClient` for patchgym's action and observation.

Written against openenv-core 0.2.3 (`openenv/core/env_client.py`): subclasses implement
`_step_payload(action) -> dict`, `_parse_result(payload) -> StepResult`, `_parse_state(payload)`.

    from patchgym.openenv import PatchgymEnv, message_action
    async with PatchgymEnv(base_url="http://127.0.0.1:8000") as env:
        result = await env.reset(task_id="py-median-even")
        result = await env.step(message_action(assistant_message))
"""


def message_action(message, tokens=None, usage=None, finish_reason=None):
    """The action for one assistant message (with the generation's token ids and usage)."""
    action = {"message": message}
    for name, value in (("tokens", tokens), ("usage", usage), ("finish_reason", finish_reason)):
        if value is not None:
            action[name] = value
    return action


def finish_action():
    """The action that ends the episode now and grades it."""
    return {"finish": True}


def _make_class(env_client, step_result):
    class PatchgymEnv(env_client):
        """OpenEnv client for patchgym: actions and observations are plain dicts."""

        def _step_payload(self, action):
            return dict(action)

        def _parse_result(self, payload):
            return step_result(
                observation=payload.get("observation", {}),
                reward=payload.get("reward"),
                done=payload.get("done", False),
            )

        def _parse_state(self, payload):
            return payload

    return PatchgymEnv


def __getattr__(name):
    if name == "PatchgymEnv":
        from openenv.core.client_types import StepResult  # imported only when used
        from openenv.core.env_client import EnvClient

        cls = _make_class(EnvClient, StepResult)
        globals()["PatchgymEnv"] = cls
        return cls
    raise AttributeError(name)


make_env_class = _make_class
