"""Typed errors: one class per protocol error code, so callers catch what they expect."""


class PatchgymError(Exception):
    """An error answer from the server: `code` is from the protocol's closed set."""

    code = "internal"

    def __init__(self, message, code=None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __str__(self):
        return f"{self.code}: {self.message}"


class BadRequest(PatchgymError):
    """The request was malformed (bad_json, bad_request, too_deep, line_too_long)."""

    code = "bad_request"


class UnknownTask(PatchgymError):
    code = "unknown_task"


class UnknownEpisode(PatchgymError):
    code = "unknown_episode"


class EpisodeExpired(UnknownEpisode):
    """The episode was closed after its idle timeout."""

    code = "episode_expired"


class EpisodeDone(PatchgymError):
    """A step after the episode ended."""

    code = "episode_done"


class EpisodeExists(PatchgymError):
    code = "episode_exists"


class TooManyEpisodes(PatchgymError):
    code = "too_many_episodes"


class ConnectionClosed(PatchgymError):
    """The server went away (process exited, socket closed) before answering."""

    code = "connection_closed"


_BY_CODE = {
    "bad_json": BadRequest,
    "bad_request": BadRequest,
    "too_deep": BadRequest,
    "line_too_long": BadRequest,
    "unknown_task": UnknownTask,
    "unknown_episode": UnknownEpisode,
    "episode_expired": EpisodeExpired,
    "episode_done": EpisodeDone,
    "episode_exists": EpisodeExists,
    "too_many_episodes": TooManyEpisodes,
}


def error_from(answer):
    """The exception for an error answer `{"error": {"code", "message"}}`."""
    error = answer.get("error") or {}
    code = error.get("code", "internal")
    return _BY_CODE.get(code, PatchgymError)(error.get("message", "unknown error"), code)
