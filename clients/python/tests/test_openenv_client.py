"""OpenEnv's own `EnvClient` (openenv-core, over the `websockets` library) against `serve --http`
with a token: only a base URL with the token as its password, no code change. Skipped where
openenv-core is not installed (PyPI is out of reach on the CI machines; run it where it is)."""
import asyncio

import pytest

env_client = pytest.importorskip("openenv.core.env_client")
client_types = pytest.importorskip("openenv.core.client_types")

from patchgym import openenv as pg_openenv  # noqa: E402
from patchgym import tool_call_message  # noqa: E402


def test_openenv_env_client_authenticates_with_the_token_in_its_url(http_url, http_token, solution):
    PatchgymEnv = pg_openenv.make_env_class(env_client.EnvClient, client_types.StepResult)

    async def episode(base_url):
        async with PatchgymEnv(base_url=base_url) as env:
            await env.reset(task_id="py-median-even")
            result = None
            for name, arguments in [
                ("apply_patch", {"patch": solution}),
                ("submit", {"status": "solved", "summary": "fixed"}),
            ]:
                result = await env.step(pg_openenv.message_action(tool_call_message(name, arguments)))
            return result

    with pytest.raises(ConnectionError):
        asyncio.run(episode(http_url))
    result = asyncio.run(episode(http_url.replace("http://", f"http://patchgym:{http_token}@")))
    assert result.done is True and result.reward == 1.0
