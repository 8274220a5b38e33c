"""Servers for the client tests: PATCHGYM_TEST_SERVE holds the argv of `patchgym serve` as JSON
(the Deno test that runs this suite sets it); without it, `deno task -q patchgym serve`."""
import json
import os
import re
import secrets
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def serve_argv():
    raw = os.environ.get("PATCHGYM_TEST_SERVE")
    return json.loads(raw) if raw else ["deno", "task", "-q", "patchgym", "serve"]


@pytest.fixture
def stdio_command():
    return serve_argv() + ["--stdio"]


@pytest.fixture
def http_token(tmp_path, monkeypatch):
    """A token file for `serve --http`, named to the clients by PATCHGYM_TOKEN_FILE as a user would."""
    path = tmp_path / "token"
    token = secrets.token_hex(32)
    path.write_text(token + "\n", encoding="utf-8")
    path.chmod(0o600)
    monkeypatch.setenv("PATCHGYM_TOKEN_FILE", str(path))
    return token


@pytest.fixture
def http_url(http_token):
    process = subprocess.Popen(
        serve_argv() + ["--http", "127.0.0.1:0", "--token-file", os.environ["PATCHGYM_TOKEN_FILE"]],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = None
        for line in process.stderr:
            match = re.search(r"listening on (http://\S+)", line)
            if match:
                url = match.group(1)
                break
        assert url, "serve --http did not say where it listens"
        yield url
    finally:
        process.terminate()
        process.wait(30)
        process.stderr.close()


@pytest.fixture
def solution():
    with open(os.path.join(ROOT, "tasks", "py-median-even", "solution.patch"), encoding="utf-8") as f:
        return f.read()
