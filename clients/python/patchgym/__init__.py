"""patchgym's Python client (standard library only): `Client` / `AsyncClient` over a
`serve --stdio` subprocess or the WebSocket of `serve --http`, typed errors, and thin adapters for
SkyRL-Gym (`patchgym.skyrl`), verifiers (`patchgym.verifiers`), OpenEnv (`patchgym.openenv`) and
TRL (`patchgym.trl`) that import their library only when used."""
from .client import AsyncClient, Client, Reset, StepResult, default_command, tool_call_message
from .errors import (
    BadRequest,
    ConnectionClosed,
    EpisodeDone,
    EpisodeExists,
    EpisodeExpired,
    PatchgymError,
    TooManyEpisodes,
    UnknownEpisode,
    UnknownTask,
)

__all__ = [
    "AsyncClient",
    "BadRequest",
    "Client",
    "ConnectionClosed",
    "EpisodeDone",
    "EpisodeExists",
    "EpisodeExpired",
    "PatchgymError",
    "Reset",
    "StepResult",
    "TooManyEpisodes",
    "UnknownEpisode",
    "UnknownTask",
    "default_command",
    "tool_call_message",
]
