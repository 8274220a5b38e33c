"""The client's side of `serve --http` authentication, and the Ray pool's address check."""
import asyncio
import os

import pytest

from patchgym._websocket import WebSocket, find_token
from patchgym.ray import public_addresses


def test_find_token_takes_the_argument_then_the_url_then_the_variable_then_the_file(tmp_path, monkeypatch):
    path = tmp_path / "token"
    path.write_text("# the server's\nfromfile0123456789 name=a sessions=2\n", encoding="utf-8")
    monkeypatch.setenv("PATCHGYM_TOKEN_FILE", str(path))
    monkeypatch.delenv("PATCHGYM_TOKEN", raising=False)
    assert find_token("ws://127.0.0.1:1/ws") == "fromfile0123456789"
    monkeypatch.setenv("PATCHGYM_TOKEN", "fromenv0123456789")
    assert find_token("ws://127.0.0.1:1/ws") == "fromenv0123456789"
    assert find_token("ws://patchgym:fromurl0123456789@127.0.0.1:1/ws") == "fromurl0123456789"
    assert find_token("ws://127.0.0.1:1/ws", "given0123456789") == "given0123456789"
    monkeypatch.delenv("PATCHGYM_TOKEN")
    monkeypatch.setenv("PATCHGYM_TOKEN_FILE", str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError):
        find_token("ws://127.0.0.1:1/ws")


def test_public_addresses_names_only_addresses_outside_private_networks():
    assert public_addresses(
        ["127.0.0.1:6379", "10.1.2.3", "192.168.0.9:8265", "172.16.0.1", "[::1]:1", "fd00::7", "8.8.8.8:6379", None]
    ) == ["8.8.8.8:6379"]


def test_a_bad_address_is_named_without_its_token():
    with pytest.raises(ValueError) as refused:
        asyncio.run(WebSocket.connect("ftp://patchgym:secret0123456789@127.0.0.1:1/ws"))
    assert "secret0123456789" not in str(refused.value)
    assert "127.0.0.1:1" in str(refused.value)
